/**
 * npm start: one process with the API emulator (or --api URL), the local Apps Script runtime and
 * the playground page on http://127.0.0.1:PORT (default 8080).
 *
 *   npm start -- [--port 8080] [--orders 2000] [--seed 1] [--plan starter|pro|plus] [--api URL]
 */
import path from 'node:path';
import { startStack } from '../harness/index';
import { startPlayground } from './app';

interface CliOptions {
  port: number;
  orders: number;
  seed: number | undefined;
  plan: 'starter' | 'pro' | 'plus' | undefined;
  apiUrl: string | undefined;
}

function parseArgs(argv: string[]): CliOptions {
  const options: CliOptions = { port: 8080, orders: 2000, seed: undefined, plan: undefined, apiUrl: undefined };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    const need = (): string => {
      if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
      i++;
      return value;
    };
    const int = (min: number, max: number): number => {
      const n = Number(need());
      if (!Number.isInteger(n) || n < min || n > max)
        throw new Error(`${flag} must be a whole number from ${min} to ${max}`);
      return n;
    };
    if (flag === '--port') options.port = int(0, 65535);
    else if (flag === '--orders') options.orders = int(0, 1_000_000);
    else if (flag === '--seed') options.seed = int(0, Number.MAX_SAFE_INTEGER);
    else if (flag === '--plan') {
      const plan = need();
      if (plan !== 'starter' && plan !== 'pro' && plan !== 'plus')
        throw new Error('--plan must be starter, pro or plus');
      options.plan = plan;
    } else if (flag === '--api') {
      const url = need();
      if (!/^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|$)/.test(url))
        throw new Error('--api must be a loopback http URL, e.g. http://127.0.0.1:8787');
      options.apiUrl = url.replace(/\/+$/, '');
    } else throw new Error(`Unknown option ${flag}. Options: --port, --orders, --seed, --plan, --api`);
  }
  return options;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const stack = await startStack({
    orders: options.orders,
    seed: options.seed,
    plan: options.plan,
    apiUrl: options.apiUrl,
  });
  const playground = await startPlayground({
    stack,
    distDir: path.resolve(__dirname, '../../dist'),
    port: options.port,
  }).catch(async (error: unknown) => {
    await stack.close();
    throw error;
  });
  console.log(`Merchant Analytics playground: ${playground.url}`);
  console.log(`API emulator: ${stack.apiUrl}`);
  const stop = async (): Promise<void> => {
    await playground.close();
    await stack.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
