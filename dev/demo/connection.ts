/**
 * Makes sure the spreadsheet's connection works against the emulator in use, the way a merchant
 * would: the sidebar's own check (getSidebarState reads the account with the stored token and
 * records a refusal), then the consent flow over HTTP when it is missing or broken.
 * The sidebar may answer from the document cache (the account's max-age is 5 minutes), so a
 * "connected" answer is confirmed with checkApiConnection, which always asks the service.
 */
import type { Stack } from '../harness/index';
import type { ConnectionStateName, SidebarState } from '../../src/contract/sidebar';

export type ConnectionOutcome = 'connected' | 'reconnected' | 'already connected';

const RECONNECTABLE: readonly ConnectionStateName[] = ['revoked', 'store_changed', 'invalid_claims', 'lapsed'];

async function sidebarState(stack: Stack): Promise<SidebarState> {
  const r = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
  if (!r.ok) throw new Error(`getSidebarState failed: ${r.error?.message ?? 'unknown error'}`);
  return r.value as SidebarState;
}

function problemText(state: SidebarState): string {
  const problem = state.connection.problem ?? state.problem;
  return problem ? problem.userMessage : state.connection.state;
}

/**
 * Asks the service with the stored token (refreshing once on invalid_token, as a trigger would).
 * A refusal is recorded as the connection's state; a refused refresh ends the execution with a
 * ConnectionError, which is a refusal too. Returns the failure's message, or null when it works.
 */
async function serviceRefusal(stack: Stack): Promise<string | null> {
  const r = await stack.runtime.run('checkApiConnection', [], { authMode: 'FULL' });
  if (!r.ok) return r.error?.message ?? 'checkApiConnection failed';
  const check = r.value as { ok: boolean; userMessage?: string };
  return check.ok ? null : (check.userMessage ?? 'the service refused the connection');
}

/** Leaves the spreadsheet connected, saying whether it already was, was connected or reconnected; throws when a merchant cannot fix it from here. */
export async function ensureConnection(stack: Stack): Promise<ConnectionOutcome> {
  let before = await sidebarState(stack);
  if (before.connection.state === 'connected') {
    const refusal = await serviceRefusal(stack);
    if (refusal === null) return 'already connected';
    before = await sidebarState(stack);
    if (before.connection.state === 'connected') throw new Error(`the connection check failed: ${refusal}`);
  }
  const name = before.connection.state;
  if (name !== 'not_connected' && RECONNECTABLE.indexOf(name) < 0) {
    throw new Error(`the connection cannot be made from here (${name}): ${problemText(before)}`);
  }
  const result = await stack.connect();
  const after = await sidebarState(stack);
  if (after.connection.state !== 'connected') {
    throw new Error(
      `connecting did not work (callback page: ${result.outcome ?? `HTTP ${result.status}`}): ${problemText(after)}`,
    );
  }
  return name === 'not_connected' ? 'connected' : 'reconnected';
}
