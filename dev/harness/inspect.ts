/** Read-only views of a stack for tests: what the sidebar shows, what the auth server saw, leaks. */
import type { GasRuntime } from '../gas-runtime/index';

export interface ConnectionSeen {
  state: string;
  message: string | null;
  action: string | null;
  storeId: string | null;
}

/** The connection as the sidebar shows it (getSidebarState, the product's own path). */
export async function sidebarConnection(runtime: GasRuntime): Promise<ConnectionSeen> {
  const result = await runtime.run('getSidebarState', [], { authMode: 'FULL' });
  if (!result.ok) throw new Error(`getSidebarState failed: ${result.error?.message}`);
  const view = (
    result.value as {
      connection: {
        state: string;
        store: { id: string } | null;
        problem: { userMessage: string; action: string } | null;
      };
    }
  ).connection;
  return {
    state: view.state,
    message: view.problem ? view.problem.userMessage : null,
    action: view.problem ? view.problem.action : null,
    storeId: view.store ? view.store.id : null,
  };
}

export interface TokenRequestStats {
  total: number;
  byGrantType: Record<string, number>;
  byClientAuthMethod: Record<string, number>;
  failures: Record<string, number>;
}

/** Token-endpoint counters from /_emulator/stats. */
export async function tokenRequestStats(
  control: (p: string, b?: unknown) => Promise<unknown>,
): Promise<TokenRequestStats> {
  const stats = (await control('stats')) as {
    auth: {
      token_requests: { by_grant_type: Record<string, number>; by_client_auth_method: Record<string, number> };
      token_failures: { by_error: Record<string, number> };
    };
  };
  const byGrantType = stats.auth.token_requests.by_grant_type;
  return {
    total: Object.values(byGrantType).reduce((a, b) => a + b, 0),
    byGrantType,
    byClientAuthMethod: stats.auth.token_requests.by_client_auth_method,
    failures: stats.auth.token_failures.by_error,
  };
}

/** Every token value the emulator issued, to scan outputs for leaks. */
export async function issuedTokenValues(control: (p: string, b?: unknown) => Promise<unknown>): Promise<string[]> {
  const issued = (await control('issued-tokens')) as { access_tokens: string[]; refresh_tokens: string[] };
  return [...issued.access_tokens, ...issued.refresh_tokens];
}

/** The issued token values found in `text` (empty when none leaked). */
export function leakedTokens(text: string, tokens: string[]): string[] {
  return tokens.filter((token) => token.length >= 16 && text.includes(token));
}
