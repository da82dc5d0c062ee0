/**
 * Emulator throughput: generates 100,000 orders, then pages the whole list at limit 250 over real
 * HTTP with a real token, and prints requests/second and process memory. Figures only, no verdict.
 * Run: npx tsx bench/emulator.bench.ts [orders]
 */
import { startEmulator } from '../dev/emulator/index.js';

const MB = 1024 * 1024;

async function main(): Promise<void> {
  const orders = Number(process.argv[2] ?? 100_000);
  const t0 = performance.now();
  const emu = await startEmulator({
    orders,
    seed: 1,
    rateLimits: { burstPerMinute: 1e9, hourly: 1e9, daily: 1e9, clientGlobalPerMinute: 1e9, concurrent: 8 },
  });
  const generatedMs = performance.now() - t0;
  const minted = await fetch(`${emu.url}/_emulator/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ scope: 'orders:read' }),
  });
  const { access_token: token } = (await minted.json()) as { access_token: string };
  const headers = { Authorization: `Bearer ${token}` };

  for (const [label, filters] of [
    ['by id (full reconciliation)', 'status=all&limit=250'],
    ['by updated_at (incremental feed)', 'status=all&limit=250&updated_after=1970-01-01T00:00:00Z'],
  ] as const) {
    let cursor: string | null = null;
    let requests = 0;
    let rows = 0;
    let bytes = 0;
    const started = performance.now();
    do {
      const res = await fetch(
        `${emu.url}/api/v1/orders?${filters}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { headers },
      );
      const text = await res.text();
      if (res.status !== 200) throw new Error(`status ${res.status}: ${text.slice(0, 200)}`);
      const page = JSON.parse(text) as { data: unknown[]; page: { has_more: boolean; next_cursor: string | null } };
      requests++;
      rows += page.data.length;
      bytes += text.length;
      cursor = page.page.has_more ? page.page.next_cursor : null;
    } while (cursor);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${label}: ${rows} orders in ${requests} requests, ${seconds.toFixed(2)} s, ${(requests / seconds).toFixed(1)} requests/s, ${(bytes / MB / seconds).toFixed(1)} MB/s`,
    );
  }
  const mem = process.memoryUsage();
  console.log(`generation of ${orders} orders + server start: ${(generatedMs / 1000).toFixed(2)} s`);
  console.log(`memory: rss ${(mem.rss / MB).toFixed(0)} MB, heapUsed ${(mem.heapUsed / MB).toFixed(0)} MB`);
  await emu.close();
}

void main();
