/**
 * The add-on's Values.batchGetByDataFilter reads (sheets/values-batches.ts) against the strict
 * runtime's Values service: ONE POST for the ranges unless its body would pass Google's 2 MB
 * recommended payload (developers.google.com/sheets/api/limits), every range answered in order with
 * what Values.batchGet gives for it.
 */
import { describe, expect, it } from 'vitest';
import {
  DATA_FILTER_PAYLOAD_LIMIT,
  dataFilterPayloadBytes,
} from '../../dev/gas-runtime/spreadsheet/sheets-values-data-filter';
import { batchGetByFilters } from '../../src/server/sheets/values-batches';
import { lineItemsBook } from '../runtime/sheets-api-fixture';

const ID = 'book-batches';
type BatchGetAnswer = ReturnType<Parameters<typeof batchGetByFilters>[1]>;
const OPTIONS = { valueRenderOption: 'UNFORMATTED_VALUE', dateTimeRenderOption: 'SERIAL_NUMBER' } as const;

function book(title: string, rows = 1000) {
  const s = lineItemsBook(ID);
  const sheet = s.ss.insertSheet(title);
  // Ranges past the grid are refused, as on Google ("exceeds grid limits").
  if (rows > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), rows - sheet.getMaxRows());
  sheet.getRange('A1:B3').setValues([
    ['id', 'total'],
    ['o_1', 12.5],
    ['o_2', 7],
  ]);
  const bodies: number[] = [];
  const values = s.Sheets.Spreadsheets.Values;
  const read = (ranges: string[]) =>
    batchGetByFilters(
      (resource, id) => {
        bodies.push(dataFilterPayloadBytes(resource));
        return values.batchGetByDataFilter(resource, id) as ReturnType<Parameters<typeof batchGetByFilters>[0]>;
      },
      (id, options) => values.batchGet(id, options) as BatchGetAnswer,
      ID,
      ranges,
      OPTIONS,
    );
  return { values, read, bodies };
}

describe('batchGetByFilters', () => {
  it('reads scattered ranges in ONE request, each answered as batchGet answers it, a range asked twice sent once', () => {
    const { values, read, bodies } = book('Orders');
    const ranges = ["'Orders'!A2:B2", "'Orders'!A3:B3", "'Orders'!A9:B9", "'Orders'!A2:B2"];
    const got = read(ranges);
    expect(bodies).toHaveLength(1);
    const truth = values.batchGet(ID, { ranges, ...OPTIONS }).valueRanges;
    expect(got).toEqual(truth);
    expect(got.map((r) => r.values)).toEqual([[['o_1', 12.5]], [['o_2', 7]], undefined, [['o_1', 12.5]]]);
    expect(bodies[0]).toBe(
      dataFilterPayloadBytes({ ...OPTIONS, dataFilters: ranges.slice(0, 3).map((a1Range) => ({ a1Range })) }),
    );
  });

  it('splits only when the body would pass 2 MB, every range still answered in order', () => {
    // A long sheet name makes each filter ~130 bytes: 20,000 ranges are ~2.6 MB of body.
    const title = 'Orders '.repeat(14).trim();
    const { values, read, bodies } = book(title, 20_001);
    const ranges = Array.from({ length: 20_000 }, (_, i) => `'${title}'!A${i + 2}:B${i + 2}`);
    const got = read(ranges);
    expect(bodies).toHaveLength(2);
    for (const bytes of bodies) expect(bytes).toBeLessThanOrEqual(DATA_FILTER_PAYLOAD_LIMIT);
    expect(got).toHaveLength(ranges.length);
    expect(got.slice(0, 3).map((r) => r.values)).toEqual([[['o_1', 12.5]], [['o_2', 7]], undefined]);
    const tail = ranges.slice(-2);
    expect(got.slice(-2)).toEqual(values.batchGet(ID, { ranges: tail, ...OPTIONS }).valueRanges);
  });

  it('places each match by the range it echoes; ranges the answer leaves out are read with batchGet', () => {
    type Answer = ReturnType<Parameters<typeof batchGetByFilters>[0]>;
    const { values } = book('Orders');
    const a = { valueRange: { values: [['o_1']] }, dataFilters: [{ a1Range: "'Orders'!A2" }] };
    const b = { valueRange: { values: [['o_2']] }, dataFilters: [{ a1Range: "'Orders'!A3" }] };
    const answering = (valueRanges: unknown[]) => () => ({ valueRanges }) as Answer;
    const batchGets: string[][] = [];
    const batchGet = (id: string, options: { ranges: string[] }) => {
      batchGets.push(options.ranges);
      return values.batchGet(id, { ...OPTIONS, ...options }) as BatchGetAnswer;
    };
    const ranges = ["'Orders'!A2", "'Orders'!A3"];
    const read = (answer: unknown[]) =>
      batchGetByFilters(answering(answer), batchGet, ID, ranges, OPTIONS).map((r) => r.values);
    expect(read([b, a])).toEqual([[['o_1']], [['o_2']]]);
    expect(batchGets).toEqual([]);
    // One match for two filters: the other range is read again, from the sheet, not taken as empty.
    expect(read([a])).toEqual([[['o_1']], [['o_2']]]);
    expect(batchGets).toEqual([["'Orders'!A3"]]);
    // Without echoes, order is taken only when every filter has its match.
    const bare = (v: string) => ({ valueRange: { values: [[v]] } });
    expect(read([bare('x'), bare('y')])).toEqual([[['x']], [['y']]]);
    expect(read([bare('x')])).toEqual([[['o_1']], [['o_2']]]);
  });

  it('a sheet removed mid-run fails the read ("Unable to parse range") instead of reading as empty rows', () => {
    type Answer = ReturnType<Parameters<typeof batchGetByFilters>[0]>;
    const { values } = book('Orders');
    const ranges = ["'Orders'!A2:B2", "'Gone'!A2:B2"];
    const answerFor = () =>
      ({ valueRanges: [{ valueRange: { values: [['o_1', 12.5]] }, dataFilters: [{ a1Range: ranges[0] }] }] }) as Answer;
    expect(() =>
      batchGetByFilters(
        answerFor,
        (id, options) => values.batchGet(id, { ...OPTIONS, ...options }) as BatchGetAnswer,
        ID,
        ranges,
        OPTIONS,
      ),
    ).toThrow(/Unable to parse range/);
  });
});
