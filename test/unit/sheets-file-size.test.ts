/**
 * The sheets layer stays in small files with one job each: none over 300 lines except the table
 * declarations, which hold only declarations (the lookups over them live beside them).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SHEETS = path.resolve(__dirname, '../../src/server/sheets');
const DECLARATIONS = 'schema.ts';
const MAX_LINES = 300;

function source(file: string): string {
  return readFileSync(path.join(SHEETS, file), 'utf8');
}

describe('the sheets layer in small files', () => {
  it('has no file over 300 lines but the table declarations', () => {
    const long = readdirSync(SHEETS)
      .filter((file) => file.endsWith('.ts') && file !== DECLARATIONS)
      .map((file) => ({ file, lines: source(file).trimEnd().split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it('keeps the table declarations free of functions', () => {
    expect(source(DECLARATIONS).match(/^(export )?function \w+/gm) ?? []).toEqual([]);
  });
});
