/**
 * `npm run demo -- --state DIR` without --api: each invocation starts a fresh emulator, so the
 * second one is the next scheduled run of the same spreadsheet against an emulator that has never
 * seen its tokens. It must notice, reconnect, and continue incrementally from the saved watermark.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDemoArgs } from '../../dev/demo/args';
import { readAnchor, startAnchoredEmulator } from '../../dev/demo/emulator-anchor';
import { runDemo, type DemoReport } from '../../dev/demo/run';
import { jsonCall } from '../../dev/harness/http';

const ORDERS = 1500;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-rerun-'));
const stateDir = path.join(work, 'state');
const outDir = path.join(work, 'out');
const lines: string[] = [];
let first: DemoReport;
let second: DemoReport;
let third: DemoReport;
let truthIds: string[] = [];

beforeAll(async () => {
  const args = parseDemoArgs(['--orders', String(ORDERS), '--seed', '4', '--state', stateDir, '--out', outDir]);
  first = await runDemo(args, (line) => lines.push(line));
  second = await runDemo(args, (line) => lines.push(line));
  // Right after the second: the account answer it read is still in the document cache (max-age 300).
  third = await runDemo(args, (line) => lines.push(line));
  // Ground truth: another emulator on the same saved data, asked for every order it holds.
  const anchor = readAnchor(stateDir);
  if (!anchor) throw new Error('the demo saved no emulator anchor');
  const emulator = await startAnchoredEmulator(anchor);
  try {
    const truth = (await jsonCall(`${emulator.url}/_emulator/truth/orders`)) as { data: Array<{ id: string }> };
    truthIds = truth.data.map((o) => o.id);
  } finally {
    await emulator.close();
  }
}, 120_000);

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

describe('demo --state DIR without --api: the next scheduled run of the same spreadsheet', () => {
  it('connects the first time and reconnects the second time, saying which', () => {
    expect(first.connection).toBe('connected');
    expect(second.connection).toBe('reconnected');
    expect(lines).toContain('connected');
    expect(lines).toContain('reconnected');
  });

  it('a third run within the account cache lifetime still notices the new emulator and reconnects', () => {
    expect(third.connection).toBe('reconnected');
    expect(third.message).toMatch(/up to date/);
  });

  it('continues from the saved watermark: far fewer order requests the second time', () => {
    expect(first.totals.orderRequests).toBeGreaterThanOrEqual(Math.ceil(ORDERS / 250));
    expect(second.totals.orderRequests).toBeLessThanOrEqual(2);
    expect(second.totals.orderRequests * 3).toBeLessThan(first.totals.orderRequests);
  });

  it('leaves every order once in workbook.json, exactly as many as the emulator holds', () => {
    const workbook = JSON.parse(fs.readFileSync(path.join(outDir, 'workbook.json'), 'utf8')) as {
      sheets: Record<string, unknown[][]>;
    };
    const [header, ...rows] = workbook.sheets.Orders;
    const ids = rows.map((r) => String(r[header.indexOf('id')]));
    expect(new Set(ids).size).toBe(ids.length);
    expect(truthIds.length).toBe(ORDERS);
    expect(ids.length).toBe(truthIds.length);
    expect(new Set(ids)).toEqual(new Set(truthIds));
  });
});
