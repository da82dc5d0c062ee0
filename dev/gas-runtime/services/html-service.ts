import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { HtmlOutputLike } from '../types.js';

/** Google's `HtmlOutput`. */
export class HtmlOutput implements HtmlOutputLike {
  private title = '';
  private width = 300;
  private height = 500;
  private sandboxMode = 'IFRAME';
  private xFrameOptionsMode = 'DEFAULT';
  private readonly metaTags: Array<{ name: string; content: string }> = [];

  constructor(private content = '') {}

  getContent(): string {
    return this.content;
  }

  setContent(content: unknown): HtmlOutput {
    this.content = String(content);
    return this;
  }

  append(html: unknown): HtmlOutput {
    this.content += String(html);
    return this;
  }

  appendUntrusted(text: unknown): HtmlOutput {
    this.content += escapeHtml(String(text));
    return this;
  }

  clear(): HtmlOutput {
    this.content = '';
    return this;
  }

  getTitle(): string {
    return this.title;
  }

  setTitle(title: unknown): HtmlOutput {
    this.title = String(title);
    return this;
  }

  getWidth(): number {
    return this.width;
  }

  setWidth(width: unknown): HtmlOutput {
    this.width = Number(width);
    return this;
  }

  getHeight(): number {
    return this.height;
  }

  setHeight(height: unknown): HtmlOutput {
    this.height = Number(height);
    return this;
  }

  setSandboxMode(mode: unknown): HtmlOutput {
    this.sandboxMode = String(mode);
    return this;
  }

  getSandboxMode(): string {
    return this.sandboxMode;
  }

  setXFrameOptionsMode(mode: unknown): HtmlOutput {
    this.xFrameOptionsMode = String(mode);
    return this;
  }

  getXFrameOptionsMode(): string {
    return this.xFrameOptionsMode;
  }

  addMetaTag(name: unknown, content: unknown): HtmlOutput {
    this.metaTags.push({ name: String(name), content: String(content) });
    return this;
  }

  setFaviconUrl(): HtmlOutput {
    return this;
  }
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function lookup(properties: Record<string, unknown>, expression: string): unknown {
  const trimmed = expression.trim();
  if (!/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(trimmed)) {
    throw new Error(
      `Template scriptlet "${trimmed}" is not supported locally: only printing template properties (<?= name ?>, <?!= name ?>)`,
    );
  }
  let value: unknown = properties;
  for (const part of trimmed.split('.'))
    value = value === null || value === undefined ? undefined : (value as Record<string, unknown>)[part];
  return value;
}

/** Google's `HtmlTemplate`, minimal: `<?= prop ?>` prints escaped, `<?!= prop ?>` prints raw. */
export class HtmlTemplate {
  constructor(private readonly source: string) {}

  getCode(): string {
    return this.source;
  }

  /** The worker sends the properties the script assigned to the template. */
  evaluate(properties?: unknown): HtmlOutput {
    const props = (properties ?? {}) as Record<string, unknown>;
    const html = this.source.replace(
      /<\?(!?=)?([\s\S]*?)\?>/g,
      (_m, printer: string | undefined, expression: string) => {
        if (printer === undefined) throw new Error('Template code scriptlets (<? ... ?>) are not supported locally');
        const value = lookup(props, expression);
        const text = value === undefined || value === null ? '' : String(value);
        return printer === '!=' ? text : escapeHtml(text);
      },
    );
    return new HtmlOutput(html);
  }
}

export class HtmlService {
  readonly SandboxMode = Object.freeze({ EMULATED: 'EMULATED', IFRAME: 'IFRAME', NATIVE: 'NATIVE' });
  readonly XFrameOptionsMode = Object.freeze({ ALLOWALL: 'ALLOWALL', DEFAULT: 'DEFAULT' });

  constructor(private readonly distDir: string) {}

  createHtmlOutput(html?: unknown): HtmlOutput {
    return new HtmlOutput(html === undefined || html === null ? '' : String(html));
  }

  createHtmlOutputFromFile(filename: unknown): HtmlOutput {
    return new HtmlOutput(this.readFile(filename));
  }

  createTemplate(html: unknown): HtmlTemplate {
    return new HtmlTemplate(String(html));
  }

  createTemplateFromFile(filename: unknown): HtmlTemplate {
    return new HtmlTemplate(this.readFile(filename));
  }

  private readFile(filename: unknown): string {
    const name = String(filename).replace(/\.html$/, '');
    if (!/^[\w\-. ]+$/.test(name) || name.includes('..')) throw new Error(`No HTML file named ${name} was found.`);
    try {
      return readFileSync(path.join(this.distDir, `${name}.html`), 'utf8');
    } catch {
      throw new Error(`No HTML file named ${name} was found.`);
    }
  }
}
