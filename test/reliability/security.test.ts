/**
 * Security: the OAuth flow as an attacker or an old browser tab would replay it. PKCE
 * verifiers are judged as the emulator received them (GET /_emulator/pkce), state tokens past
 * their hour and callback URLs used twice change nothing, the state's own arguments cannot be
 * replaced from the query, and every case ends with the token scan of everything recorded
 * (verdict.ts `tokensIn`). Runs on the harness's default library (the real apps-script-oauth2).
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { approveAuthorization } from '../../dev/emulator/oauth/scripted-merchant';
import { readAuthorizationUrl } from '../../dev/harness/index';
import { httpExchange } from '../../dev/harness/http';
import { leakedTokens, sidebarConnection, tokenRequestStats } from '../../dev/harness/inspect';
import { startReliabilityStack, type ReliabilityStack } from './support/reliability-stack';
import { tokensIn } from './support/verdict';

const UNRESERVED_43_TO_128 = /^[A-Za-z0-9\-._~]{43,128}$/;

interface PkceRedemption {
  code_verifier: string;
  code_challenge: string | null;
  well_formed: boolean;
  matched: boolean;
}

let stack: ReliabilityStack | null = null;
afterEach(async () => {
  await stack?.close();
  stack = null;
});

async function securityStack(): Promise<ReliabilityStack> {
  stack = await startReliabilityStack({ orders: 6, seed: 31 });
  return stack;
}

async function redemptions(s: ReliabilityStack): Promise<PkceRedemption[]> {
  return ((await s.control('pkce')) as { redemptions: PkceRedemption[] }).redemptions;
}

/** Every property of every store, as text: what the add-on keeps anywhere. */
function allProperties(s: ReliabilityStack): string {
  const p = s.runtime.properties;
  return JSON.stringify([p.script.all(), p.document.all(), p.user.all()]);
}

/** A flow up to the merchant's approval: the callback URL the browser would be sent to, not yet visited. */
async function approvedCallbackUrl(s: ReliabilityStack): Promise<string> {
  const authorizationUrl = await readAuthorizationUrl(s.runtime);
  s.outputs.push(authorizationUrl);
  const callbackUrl = await approveAuthorization(authorizationUrl, { storeId: s.storeId });
  s.outputs.push(callbackUrl);
  return callbackUrl;
}

async function visit(s: ReliabilityStack, url: string): Promise<{ status: number; outcome: string | null }> {
  const page = await httpExchange(url);
  s.outputs.push(page.body);
  const outcome = /data-outcome="([a-z_]+)"/.exec(page.body);
  return { status: page.status, outcome: outcome ? outcome[1]! : null };
}

/**
 * What a callback must leave alone when it is refused: the stored token and the connection. The
 * properties as a digest, so a failing comparison never prints a token.
 */
async function connectionSnapshot(s: ReliabilityStack) {
  const seen = await sidebarConnection(s.runtime);
  // A refused callback still spends its flow mark (connect-flow.ts): that is the point of the mark.
  const user = Object.entries(s.runtime.properties.user.all()).filter(([k]) => !k.startsWith('ma.connectFlow.'));
  const kept = JSON.stringify([s.runtime.properties.script.all(), s.runtime.properties.document.all(), user]);
  return { properties: createHash('sha256').update(kept).digest('hex'), seen };
}

async function connectionStillWorks(s: ReliabilityStack): Promise<unknown> {
  const check = await s.runtime.run('checkApiConnection', ['trigger'], { authMode: 'FULL' });
  return check.value;
}

describe('PKCE verifier as the emulator received it', () => {
  it('43–128 unreserved characters, matching its challenge, a new one for every flow, never written anywhere', async () => {
    const s = await securityStack();
    expect((await s.connect({ storeId: s.storeId })).outcome).toBe('connected');
    expect((await s.connect({ storeId: s.storeId })).outcome).toBe('connected');
    const seen = await redemptions(s);
    // The stack's own connect plus the two above.
    expect(seen).toHaveLength(3);
    for (const r of seen) {
      expect(r.code_verifier).toMatch(UNRESERVED_43_TO_128);
      expect(r).toMatchObject({ well_formed: true, matched: true });
    }
    expect(new Set(seen.map((r) => r.code_verifier)).size).toBe(3);
    expect(new Set(seen.map((r) => r.code_challenge)).size).toBe(3);
    // The verifier travels sealed in the state token: not in any URL, page, log, result or property.
    const recorded = [...s.outputs, allProperties(s), ...s.runtime.totals.requests.map((r) => r.url)].join('\n');
    expect(
      leakedTokens(
        recorded,
        seen.map((r) => r.code_verifier),
      ),
    ).toEqual([]);
    expect(await tokensIn(s)).toEqual([]);
  });
});

describe('state past its hour, and a callback URL used twice', () => {
  it('a callback arriving after the state token expired is refused before the add-on runs: no token request, nothing changed', async () => {
    const s = await securityStack();
    const callbackUrl = await approvedCallbackUrl(s);
    await s.advanceClocks(3_601_000);
    // Taken after the hour: the sidebar renews the aged token itself, which is not the callback's doing.
    const before = await connectionSnapshot(s);
    const requestsBefore = await tokenRequestStats(s.control);
    const answer = await visit(s, callbackUrl);
    expect(answer.status).toBe(400);
    expect(answer.outcome).toBeNull();
    expect(await tokenRequestStats(s.control)).toEqual(requestsBefore);
    expect(await connectionSnapshot(s)).toEqual(before);
    expect(await tokensIn(s)).toEqual([]);
  });

  it('a code past its minute inside a live state: the expired page, nothing stored', async () => {
    const s = await securityStack();
    const callbackUrl = await approvedCallbackUrl(s);
    await s.advanceClocks(120_000);
    const before = await connectionSnapshot(s);
    const answer = await visit(s, callbackUrl);
    expect(answer).toEqual({ status: 200, outcome: 'expired' });
    expect(await connectionSnapshot(s)).toEqual(before);
    expect(await connectionStillWorks(s)).toMatchObject({ ok: true, storeId: s.storeId });
    expect(await tokensIn(s)).toEqual([]);
  });

  it('the same callback URL a second time neither connects again nor overwrites anything, and the connection keeps working', async () => {
    const s = await securityStack();
    const callbackUrl = await approvedCallbackUrl(s);
    expect(await visit(s, callbackUrl)).toEqual({ status: 200, outcome: 'connected' });
    const before = await connectionSnapshot(s);
    const requestsBefore = await tokenRequestStats(s.control);
    const replay = await visit(s, callbackUrl);
    expect(replay).toEqual({ status: 200, outcome: 'link_used' });
    // Not even a token request: redeeming the code again would make the server revoke the tokens it gave for it (OAuth 2.1 4.1.3).
    expect(await tokenRequestStats(s.control)).toEqual(requestsBefore);
    expect(await connectionSnapshot(s)).toEqual(before);
    expect(await connectionStillWorks(s)).toMatchObject({ ok: true, storeId: s.storeId });
    expect(await tokensIn(s)).toEqual([]);
  });
});

describe('a callback completes only the flow, and the spreadsheet, its state token names', () => {
  it("query parameters cannot replace the state's arguments (flow, spreadsheet, verifier, service)", async () => {
    const s = await securityStack();
    const callbackUrl = await approvedCallbackUrl(s);
    const forged = `${callbackUrl}&flow=00000000-0000-4000-8000-000000000000&sheet=another-spreadsheet&codeVerifier_=${'a'.repeat(43)}&serviceName=other`;
    expect(await visit(s, forged)).toEqual({ status: 200, outcome: 'connected' });
    const last = (await redemptions(s)).at(-1)!;
    expect(last).toMatchObject({ matched: true });
    expect(last.code_verifier).not.toBe('a'.repeat(43));
    expect(s.runtime.properties.user.keys().filter((k) => k.startsWith('ma.connectFlow.'))).toEqual([]);
    expect(await tokensIn(s)).toEqual([]);
  });

  it("a code approved in one flow, brought back through another flow's callback, connects nothing", async () => {
    const s = await securityStack();
    const first = new URL(await approvedCallbackUrl(s));
    const second = new URL(await approvedCallbackUrl(s));
    const before = await connectionSnapshot(s);
    first.searchParams.set('code', second.searchParams.get('code')!);
    const answer = await visit(s, first.toString());
    expect(answer.outcome).toBe('expired');
    const last = (await redemptions(s)).at(-1)!;
    expect(last).toMatchObject({ well_formed: true, matched: false });
    expect(await connectionSnapshot(s)).toEqual(before);
    expect(await connectionStillWorks(s)).toMatchObject({ ok: true, storeId: s.storeId });
    expect(await tokensIn(s)).toEqual([]);
  });

  it('a flow begun in another spreadsheet cannot complete here: refused before any token request, nothing written', async () => {
    const s = await securityStack();
    const callbackUrl = await approvedCallbackUrl(s);
    // The runtime holds one spreadsheet: the user's flow mark is moved to name another one, as a
    // flow begun there would. Its state token (sealed) still names this one; either mismatch refuses.
    const user = s.runtime.properties.user;
    const [markKey] = user.keys().filter((k) => k.startsWith('ma.connectFlow.'));
    const mark = JSON.parse(user.get(markKey!)!) as { spreadsheetId: string; at: number };
    user.set(markKey!, JSON.stringify({ ...mark, spreadsheetId: 'another-spreadsheet-id' }));
    const before = await connectionSnapshot(s);
    const requestsBefore = await tokenRequestStats(s.control);
    expect(await visit(s, callbackUrl)).toEqual({ status: 200, outcome: 'wrong_spreadsheet' });
    expect(await tokenRequestStats(s.control)).toEqual(requestsBefore);
    expect(await connectionSnapshot(s)).toEqual(before);
    expect(await tokensIn(s)).toEqual([]);
  });
});
