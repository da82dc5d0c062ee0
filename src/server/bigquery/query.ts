/**
 * A SELECT run through jobs.query and read whole: BigQuery answers within the request's
 * timeoutMs or says jobComplete false, and a big result comes in pages (pageToken); the rest is
 * read with jobs.getQueryResults ("Running queries", REST reference jobs.query and
 * jobs.getQueryResults). Parameters are NAMED ("Running parameterized queries"): the values go
 * beside the SQL, never into it. Every value comes back as a string, NULL as null.
 */
import { bigQuery, locationArg } from './service';

export interface QueryParameter {
  name: string;
  type: 'STRING' | 'DATE' | 'INT64' | 'TIMESTAMP';
  value: string;
}

export type ResultRow = Record<string, string | null>;

interface ResultPage {
  jobComplete?: boolean;
  jobReference?: { jobId?: string; location?: string };
  schema?: { fields?: Array<{ name?: string }> };
  rows?: Array<{ f?: Array<{ v?: unknown }> }>;
  pageToken?: string;
}

/** How long one request waits for the job before answering jobComplete: false (BigQuery's default is 10 s). */
const WAIT_MS = 10_000;

export function queryRows(projectId: string, sql: string, parameters: readonly QueryParameter[]): ResultRow[] {
  const jobs = bigQuery().Jobs!;
  let page = jobs.query(
    {
      query: sql,
      useLegacySql: false,
      parameterMode: 'NAMED',
      queryParameters: parameters.map((p) => ({
        name: p.name,
        parameterType: { type: p.type },
        parameterValue: { value: p.value },
      })),
      timeoutMs: WAIT_MS,
    },
    projectId,
  ) as ResultPage;
  const jobId = String(page.jobReference?.jobId ?? '');
  // A job in a single region is found only with its location (REST reference, jobs.getQueryResults).
  const location = locationArg(page.jobReference?.location);
  const rows: ResultRow[] = [];
  for (;;) {
    if (page.jobComplete !== false) {
      const names = (page.schema?.fields ?? []).map((f) => String(f.name));
      for (const row of page.rows ?? [])
        rows.push(Object.fromEntries(names.map((name, i) => [name, cellOf(row.f?.[i]?.v)])));
      if (!page.pageToken) return rows;
    }
    page = jobs.getQueryResults(projectId, jobId, {
      ...location,
      timeoutMs: WAIT_MS,
      ...(page.jobComplete !== false && page.pageToken ? { pageToken: page.pageToken } : {}),
    }) as ResultPage;
  }
}

const cellOf = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
