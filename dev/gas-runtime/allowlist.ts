/**
 * The manifest's urlFetchWhitelist as Google applies it
 * (developers.google.com/apps-script/manifest/allowlist-url):
 * - each prefix must be a valid URL, use https://, have a full domain and a non-empty path
 *   ("https://www.google.com/ is valid but https://www.google.com is not"); a single leading
 *   wildcard matches subdomains (https://*.example.com/);
 * - a URL matches a prefix when it is identical to it or "a child of" it: https://example.com/foo
 *   matches …/foo, …/foo/, …/foo/bar, …/foo?bar and …/foo#bar — not …/foobar; path matching is
 *   case-sensitive. Stricter where the page is silent: the wildcard needs at least one subdomain
 *   (https://*.example.com/ does not match https://example.com/), and the port must be the prefix's.
 *
 * Locally the API is the emulator on loopback http: `substituteBase` puts its base in place of the
 * deployed one in each entry (after the entries were checked), so the manifest's own list decides.
 */

export interface AllowlistBase {
  /** The deployed API base the manifest's entries name, e.g. https://api.merchant-analytics.example */
  from: string;
  /** What stands in for it here, e.g. http://127.0.0.1:8787 */
  to: string;
}

/** Throws, naming the entry, what Google refuses in a manifest's urlFetchWhitelist. */
export function checkAllowlistEntries(entries: readonly string[]): void {
  for (const entry of entries) {
    const problem = entryProblem(entry);
    if (problem) throw new Error(`appsscript.json: urlFetchWhitelist entry "${entry}" ${problem}`);
  }
}

function entryProblem(entry: string): string | null {
  if (!entry.startsWith('https://')) return 'must use https://, not http://';
  const afterScheme = entry.slice('https://'.length);
  const slash = afterScheme.indexOf('/');
  if (slash < 0) return 'must have a non-empty path (end the domain with "/")';
  const host = afterScheme.slice(0, slash).replace(/^\*\./, 'wildcard.');
  if (host.includes('*')) return 'may use a single wildcard only, as the leading subdomain ("https://*.example.com/")';
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?$/i.test(host)) return 'must have a full domain';
  try {
    new URL(`https://${host}${afterScheme.slice(slash)}`);
  } catch {
    return 'must be a valid URL';
  }
  return null;
}

/** The entries with the deployed base replaced by the local one (entries that do not start with it stay). */
export function substituteBase(entries: readonly string[], base: AllowlistBase | undefined): string[] {
  if (!base) return [...entries];
  const from = base.from.replace(/\/+$/, '');
  const to = base.to.replace(/\/+$/, '');
  return entries.map((e) => (e === from || e.startsWith(`${from}/`) ? `${to}${e.slice(from.length)}` : e));
}

/** Google's rule: the URL is the prefix, or a child of it. */
export function allowedBy(prefix: string, urlText: string): boolean {
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    return false;
  }
  const match = /^([a-z]+:)\/\/([^/]+)(\/.*)$/i.exec(prefix);
  if (!match) return false;
  const [, scheme, hostPort, rest] = match;
  if (url.protocol !== scheme.toLowerCase()) return false;
  const [hostPattern, port = ''] = hostPort.toLowerCase().split(':');
  if (url.port !== port) return false;
  const host = url.hostname.toLowerCase();
  if (hostPattern.startsWith('*.')) {
    if (!host.endsWith(hostPattern.slice(1)) || host.length <= hostPattern.length - 1) return false;
  } else if (host !== hostPattern) return false;
  const tail = url.href.slice(url.origin.length);
  if (tail === rest) return true;
  if (!tail.startsWith(rest)) return false;
  return rest.endsWith('/') || '/?#'.includes(tail.charAt(rest.length));
}
