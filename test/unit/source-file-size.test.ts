/**
 * The source stays in small files with one job each: none over 300 lines except the declarative
 * tables — the sheet table declarations, which hold only declarations (the lookups over them live
 * beside them), and the API types generated from the OpenAPI document.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../../src');
const SHEETS = path.join(SRC, 'server/sheets');
const DECLARATIONS = 'schema.ts';
const TABLES = [path.join(SHEETS, DECLARATIONS), path.join(SRC, 'server/api/generated/schema.d.ts')];
const MAX_LINES = 300;

function source(file: string): string {
  return readFileSync(path.join(SHEETS, file), 'utf8');
}

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return typeScriptFiles(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

function longFiles(files: readonly string[]): Array<{ file: string; lines: number }> {
  return files
    .map((file) => ({ file: path.relative(SRC, file), lines: readFileSync(file, 'utf8').trimEnd().split('\n').length }))
    .filter(({ lines }) => lines > MAX_LINES);
}

describe('the sheets layer in small files', () => {
  it('has no file over 300 lines but the table declarations', () => {
    const long = longFiles(
      readdirSync(SHEETS)
        .filter((file) => file.endsWith('.ts') && file !== DECLARATIONS)
        .map((file) => path.join(SHEETS, file)),
    );
    expect(long).toEqual([]);
  });

  it('keeps the table declarations free of functions', () => {
    expect(source(DECLARATIONS).match(/^(export )?function \w+/gm) ?? []).toEqual([]);
  });
});

describe('the whole source in small files', () => {
  it('has no .ts file under src/ over 300 lines but the declarative tables', () => {
    expect(longFiles(typeScriptFiles(SRC).filter((file) => !TABLES.includes(file)))).toEqual([]);
  });
});
