/**
 * The BigQuery destination under granular consent (developers.google.com/apps-script/concepts/
 * scopes, "Handle granular OAuth permissions"): a user may withhold the bigquery scope. A
 * spreadsheet whose orders stay in the sheets is not affected (no banner); one whose orders go to
 * BigQuery shows what is missing with Google's link; its schedule stops as for any missing scope
 * (noted once a day), and Sync now says it lacks a permission and what to do, and does not run (no
 * BigQuery call, nothing written). Granted through that link, the
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

function bigQueryCalls(r: { counts: { byMethod: Record<string, number> } }): string[] {
  return Object.keys(r.counts.byMethod).filter((m) => m.startsWith('BigQuery.'));
}

function syncLogMessages(): string[] {
  const [header = [], ...rows] = sheetTable(stack, 'Sync log');
  const message = (header as unknown[]).indexOf('message');
  return rows.map((r) => String((r as unknown[])[message]));
}

describe('the bigquery scope withheld', () => {
  it('changes nothing for a spreadsheet whose orders stay in the sheets: no banner, and the schedule syncs', async () => {
    stack.runtime.consent.withdraw(USER, BIGQUERY);
    const state = await sidebarState();
    expect(state.googleConsent).toBeNull();
    expect(state.destination).toEqual({ chosen: { kind: 'sheets' }, permissionMissing: null, offer: null, move: null });
    await syncUntilCaughtUp(stack);
    expect(sheetTable(stack, 'Orders').length).toBeGreaterThan(1);
  }, 120_000);

  it('with orders going to BigQuery, the sidebar names the missing permission with Google’s link', async () => {
    expect((await stack.runtime.run('setOrdersDestination', [DESTINATION])).error?.message).toBeUndefined();
    const state = await sidebarState();
    expect(state.destination.chosen).toEqual(DESTINATION);
    expect(state.googleConsent?.missing).toEqual([PURPOSE]);
    expect(state.googleConsent?.authorizationUrl).toMatch(/\/authorize\?consent=/);
    expect(state.destination.permissionMissing).toEqual({ authorizationUrl: state.googleConsent?.authorizationUrl });
  });

  it('the schedule stops before syncing and says why once a day in the Sync log, as for every missing scope: no BigQuery call', async () => {
    const before = syncLogMessages().length;
    for (let run = 0; run < 2; run++) {
      const r = await scheduledRun(stack);
      expect(r.error?.message).toBeUndefined();
      const value = r.value as { outcome: string; message: string };
      expect(value.outcome).toBe('error');
      expect(value.message).toBe(
        `The scheduled sync stopped: Google has not given the add-on your permission to ${PURPOSE}. ` +
          'Open the add-on’s sidebar (Extensions → Merchant Analytics → Open sidebar) and grant it there; the schedule resumes at its next run.',
      );
      expect(bigQueryCalls(r)).toEqual([]);
    }
    expect(
      syncLogMessages()
        .slice(before)
        .filter((m) => m.includes(PURPOSE)),
    ).toHaveLength(1);
    expect(stack.runtime.bigquery.table({ projectId: PROJECT, datasetId: DATASET, tableId: 'orders' })).toBeFalsy();
  });

  it('Sync now says it lacks the permission and what to do, and does not run: no BigQuery call, no table, no order row', async () => {
    const rowsBefore = sheetTable(stack, 'Orders').length;
    const r = await stack.runtime.run('runSyncStep', [{ start: true }]);
    expect(r.error?.message).toBeUndefined();
    const value = r.value as { done: boolean; phase: string; problem: { code: string; userMessage: string } | null };
    expect(value.done).toBe(true);
    expect(value.phase).toBe('Stopped');
    expect(value.problem?.code).toBe('google_consent');
    expect(value.problem?.userMessage).toBe(
      `The sync did not run: your orders go to BigQuery, and Google has not given the add-on your permission to ${PURPOSE}. ` +
        'Grant it with the link at the top of the add-on’s sidebar (Extensions → Merchant Analytics → Open sidebar), then Sync now; ' +
        'or choose Sheets under “Where orders go”. Nothing was written.',
    );
    expect(bigQueryCalls(r)).toEqual([]);
    expect(stack.runtime.bigquery.table({ projectId: PROJECT, datasetId: DATASET, tableId: 'orders' })).toBeFalsy();
    expect(sheetTable(stack, 'Orders')).toHaveLength(rowsBefore);
    expect(syncLogMessages().at(-1)).toContain('The sync did not run: your orders go to BigQuery');
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
