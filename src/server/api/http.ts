/**
 * The HTTP edge: one GET over UrlFetchApp. Kept behind an interface so the retry and error policy
 * can be tested without Apps Script. Never logs: the request carries the bearer token.
 */

export interface HttpRequest {
  url: string;
  headers: Record<string, string>;
}

export interface HttpAnswer {
  status: number;
  body: string;
  /** Case-insensitive header lookup; null when absent. */
  header(name: string): string | null;
}

export interface HttpFetcher {
  /** Throws when no HTTP answer arrived at all (DNS, connection reset, timeout). */
  fetch(request: HttpRequest): HttpAnswer;
}

export function headerLookup(headers: object): (name: string) => string | null {
  const lower: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    lower[key.toLowerCase()] = Array.isArray(value) ? value.map(String).join(', ') : String(value);
  }
  return (name) => {
    const value = lower[name.toLowerCase()];
    return value === undefined ? null : value;
  };
}

/** UrlFetchApp with muteHttpExceptions (error bodies are read) and no redirects (the token stays here). */
export function urlFetchFetcher(): HttpFetcher {
  return {
    fetch(request: HttpRequest): HttpAnswer {
      const response = UrlFetchApp.fetch(request.url, {
        method: 'get',
        headers: request.headers,
        muteHttpExceptions: true,
        followRedirects: false,
      });
      return {
        status: response.getResponseCode(),
        body: response.getContentText(),
        header: headerLookup(response.getHeaders()),
      };
    },
  };
}
