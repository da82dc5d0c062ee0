/** Counters behind /_emulator/stats, so tests can prove how clients talk to the auth server. */
export class AuthStats {
  private tokenByGrant: Record<string, number> = {};
  private tokenByClientAuth: Record<string, number> = {};
  private tokenFailures: Record<string, number> = {};
  private authorizeOutcomes: Record<string, number> = {};
  private bearerFailures: Record<string, number> = {};

  tokenRequest(grantType: string, clientAuthMethod: string): void {
    bump(this.tokenByGrant, grantType);
    bump(this.tokenByClientAuth, clientAuthMethod);
  }

  tokenFailure(error: string): void {
    bump(this.tokenFailures, error);
  }

  authorize(outcome: string): void {
    bump(this.authorizeOutcomes, outcome);
  }

  bearerFailure(code: string): void {
    bump(this.bearerFailures, code);
  }

  clear(): void {
    for (const counters of [
      this.tokenByGrant,
      this.tokenByClientAuth,
      this.tokenFailures,
      this.authorizeOutcomes,
      this.bearerFailures,
    ]) {
      for (const key of Object.keys(counters)) delete counters[key];
    }
  }

  snapshot(): Record<string, unknown> {
    return {
      token_requests: {
        by_grant_type: { ...this.tokenByGrant },
        by_client_auth_method: { ...this.tokenByClientAuth },
      },
      token_failures: { by_error: { ...this.tokenFailures } },
      authorize: { ...this.authorizeOutcomes },
      api_auth_failures: { by_code: { ...this.bearerFailures } },
    };
  }
}

function bump(counters: Record<string, number>, key: string): void {
  counters[key] = (counters[key] ?? 0) + 1;
}
