/**
 * The BigQuery destination under granular consent (developers.google.com/apps-script/concepts/
 * scopes, "Handle granular OAuth permissions"): a user may withhold the bigquery scope. A
 * spreadsheet whose orders stay in the sheets is not affected (no banner); one whose orders go to
 * BigQuery shows what is missing with Google's link, and its sync says it lacks a permission and
 * what to do, and does not run (no BigQuery call, nothing written). Granted through that link, the
 * next sync fills the tables equal to the truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareTablesWithTruth, DATASET, PROJECT } from './bigquery-support';
import { scheduledRun, sheetTable, syncUntilCaughtUp } from './sync-support';

const USER = 'user@example.com';
const BIGQUERY = 'https://www.googleapis.com/auth/bigquery';
const PURPOSE = 'write the store’s orders into your BigQuery dataset';
const DESTINATION = { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET };

interface StateSeen {
  googleConsent: { missing: string[]; authorizationUrl: string | null } | null;
  destination: { chosen: unknown; permissionMissing: { authorizationUrl: string | null } | null; offer: string | null };
}

let stack: Stack;

async function sidebarState(): Promise<StateSeen> {
  const r = await stack.runtime.run('getSidebarState');
  expect(r.error?.message).toBeUndefined();
  return r.value as StateSeen;
}

beforeAll(async () => {
  stack = await startStack({ orders: 40, seed: 2501, modelledTimeOnly: true, emulatorClockInStep: true });
  expect((await stack.connect()).outcome).toBe('connected');
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('the bigquery scope withheld', () => {
  it('changes nothing for a spreadsheet whose orders stay in the sheets: no banner, the sheets destination shown', async () => {
    stack.runtime.consent.withdraw(USER, BIGQUERY);
    const state = await sidebarState();
    expect(state.googleConsent).toBeNull();
    expect(state.destination).toEqual({ chosen: { kind: 'sheets' }, permissionMissing: null, offer: null });
  });

  it('with orders going to BigQuery, the sidebar names the missing permission with Google’s link', async () => {
    expect((await stack.runtime.run('setOrdersDestination', [DESTINATION])).error?.message).toBeUndefined();
    const state = await sidebarState();
    expect(state.destination.chosen).toEqual(DESTINATION);
    expect(state.googleConsent?.missing).toEqual([PURPOSE]);
    expect(state.googleConsent?.authorizationUrl).toMatch(/\/authorize\?consent=/);
    expect(state.destination.permissionMissing).toEqual({ authorizationUrl: state.googleConsent?.authorizationUrl });
  });

  it('the sync says it lacks the permission and what to do, and does not run: no BigQuery call, no table, no order row', async () => {
    const r = await scheduledRun(stack);
    expect(r.error?.message).toBeUndefined();
    const value = r.value as { outcome: string; message: string };
    expect(value.outcome).toBe('error');
    expect(value.message).toContain(`Google has not given the add-on your permission to ${PURPOSE}`);
    expect(value.message).toContain('Grant it with the link at the top of the add-on’s sidebar');
    const bigQueryCalls = Object.keys(r.counts.byMethod).filter((m) => m.startsWith('BigQuery.'));
    expect(bigQueryCalls).toEqual([]);
    expect(stack.runtime.bigquery.table({ projectId: PROJECT, datasetId: DATASET, tableId: 'orders' })).toBeFalsy();
    expect(sheetTable(stack, 'Orders').length).toBeLessThanOrEqual(1);
    const [header, ...rows] = sheetTable(stack, 'Sync log');
    const message = (header as unknown[]).indexOf('message');
    expect(String((rows.at(-1) as unknown[])[message])).toContain('your permission to write the store’s orders');
  });

  it('granted through Google’s link, the next sync fills the tables equal to the truth', async () => {
    const url = (await sidebarState()).googleConsent?.authorizationUrl;
    expect((await fetch(String(url))).status).toBe(200);
    const state = await sidebarState();
    expect(state.googleConsent).toBeNull();
    expect(state.destination.permissionMissing).toBeNull();
    await syncUntilCaughtUp(stack);
    expect(await compareTablesWithTruth(stack)).toEqual({
      mismatches: [],
      missing: [],
      unexpected: [],
      duplicates: [],
    });
  }, 120_000);
});
