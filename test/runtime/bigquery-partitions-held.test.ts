/**
 * statistics.query.totalPartitionsProcessed counts the partitions a table holds when the job
 * starts (partition-reads.ts): the stand-in keeps each table's partitions from one write to the
 * next, so after every kind of write (DML INSERT, DELETE, MERGE, a load, a failed statement) the
 * next read counts what the table then holds.
 */
import { describe, expect, it } from 'vitest';
import { call, loadJob, ordersRuntimeForFile, DATASET, PROJECT, queryJob, type JobRun } from './bigquery-support.js';

const runtime = ordersRuntimeForFile();
const T = `\`${PROJECT}.${DATASET}.orders\``;

async function run(job: Record<string, unknown>, lines?: string[]): Promise<JobRun['done']> {
  const [done] = await call<JobRun[]>(runtime(), 'runJobs', PROJECT, [{ job, ...(lines ? { lines } : {}) }]);
  return done.done;
}

/** The partitions a read of the whole table processes. */
async function held(): Promise<string | undefined> {
  const done = await run(queryJob(`SELECT COUNT(*) AS n FROM ${T}`));
  expect(done.status.errorResult).toBeUndefined();
  return done.statistics.query?.totalPartitionsProcessed;
}

const order = (id: string, day: string) =>
  JSON.stringify({
    id,
    placed_day: day,
    placed_at: `${day}T10:00:00Z`,
    status: 'paid',
    items: 1,
    net_revenue: '1.00',
    net_profit: '0.50',
  });

describe('partitions processed after each kind of write', () => {
  it('counts the partitions the table holds when each read starts', async () => {
    expect(await held()).toBe('0');
    await run(queryJob(`INSERT INTO ${T} (id, placed_day) VALUES ('h-1', '2024-05-01'), ('h-2', '2024-05-02')`));
    expect(await held()).toBe('2');
    await run(loadJob('orders'), [order('h-3', '2024-05-03')]);
    expect(await held()).toBe('3');
    await run(queryJob(`DELETE FROM ${T} WHERE id = 'h-1'`));
    expect(await held()).toBe('2');
    const moved = await run(
      queryJob(`MERGE ${T} T USING (SELECT 'h-2' AS id, DATE '2024-05-09' AS placed_day) S ON T.id = S.id
        WHEN MATCHED THEN UPDATE SET placed_day = S.placed_day`),
    );
    expect(moved.status.errorResult).toBeUndefined();
    // h-2 left 05-02 for 05-09: 05-03 and 05-09.
    expect(await held()).toBe('2');
    const refused = await run(
      queryJob(`INSERT INTO ${T} (id, placed_day) VALUES ('h-4', '2024-05-04'), ('h-4b', NULL)`),
    );
    expect(refused.status.errorResult).toBeDefined();
    expect(await held()).toBe('2');
  });
});
