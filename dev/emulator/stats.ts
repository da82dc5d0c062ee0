/** Request counters for GET /_emulator/stats: per endpoint (route template) and per status. */
export class RequestStats {
  private total = 0;
  private byEndpoint = new Map<string, { total: number; by_status: Record<string, number> }>();
  private byStatus: Record<string, number> = {};

  record(endpoint: string, status: number): void {
    this.total += 1;
    const s = String(status);
    this.byStatus[s] = (this.byStatus[s] ?? 0) + 1;
    let entry = this.byEndpoint.get(endpoint);
    if (!entry) {
      entry = { total: 0, by_status: {} };
      this.byEndpoint.set(endpoint, entry);
    }
    entry.total += 1;
    entry.by_status[s] = (entry.by_status[s] ?? 0) + 1;
  }

  snapshot(): {
    requests_total: number;
    by_status: Record<string, number>;
    by_endpoint: Record<string, { total: number; by_status: Record<string, number> }>;
    token_requests: number;
  } {
    const by_endpoint = Object.fromEntries([...this.byEndpoint].sort(([a], [b]) => (a < b ? -1 : 1)));
    const token = this.byEndpoint.get('POST /api/auth/oauth2/token');
    return {
      requests_total: this.total,
      by_status: { ...this.byStatus },
      by_endpoint,
      token_requests: token ? token.total : 0,
    };
  }

  clear(): void {
    this.total = 0;
    this.byEndpoint.clear();
    this.byStatus = {};
  }
}

/** The route template of a path, so ids do not explode the stats. */
export function endpointOf(method: string, path: string): string {
  const template = path
    .replace(/^\/api\/v1\/(orders|products)\/[^/]+$/, '/api/v1/$1/{id}')
    .replace(/^\/_emulator\/(orders|products)\/[^/]+\/([a-z-]+)$/, '/_emulator/$1/{id}/$2');
  return `${method} ${template}`;
}
