/** `npm run demo` flags (ARCHITECTURE.md, Contracts → Demo CLI). */
import { wallTimeToEpoch } from '../shared/time-zone';

export interface DemoArgs {
  orders: number;
  seed: number;
  api: string | null;
  state: string | null;
  out: string;
  reconcile: boolean;
  call: string | null;
  /** A global run after the sync in a FULL execution (as a menu item or the sidebar would). */
  run: string | null;
  args: unknown[];
}

/** A wrong flag: the CLI prints the usage line and exits with status 2. */
export class UsageError extends Error {}

/** Parses the demo's flags; a UsageError names the flag that is wrong. */
export function parseDemoArgs(argv: readonly string[]): DemoArgs {
  const parsed: DemoArgs = {
    orders: 5000,
    seed: 1,
    api: null,
    state: null,
    out: 'out',
    reconcile: false,
    call: null,
    run: null,
    args: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--orders':
        parsed.orders = wholeNumber(flag, value());
        break;
      case '--seed':
        parsed.seed = wholeNumber(flag, value());
        break;
      case '--api':
        parsed.api = value();
        break;
      case '--state':
        parsed.state = value();
        break;
      case '--out':
        parsed.out = value();
        break;
      case '--reconcile':
        parsed.reconcile = true;
        break;
      case '--call':
        parsed.call = value();
        break;
      case '--run':
        parsed.run = value();
        break;
      case '--args': {
        const raw = value();
        let json: unknown;
        try {
          json = JSON.parse(raw);
        } catch (e) {
          throw new UsageError(`--args must be JSON (an array of arguments): ${(e as Error).message}`);
        }
        parsed.args = Array.isArray(json) ? json : [json];
        break;
      }
      default:
        throw new UsageError(`unknown flag ${flag}`);
    }
  }
  if (parsed.args.length > 0 && parsed.call === null && parsed.run === null)
    throw new UsageError('--args needs --call NAME or --run NAME');
  if (parsed.call !== null && parsed.run !== null)
    throw new UsageError(
      '--call and --run exclude each other: --call runs a custom function instead of the sync, --run a global after it',
    );
  return parsed;
}

function wholeNumber(flag: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number, got ${raw}`);
  return n;
}

/** `{"date": "YYYY-MM-DD"}` arrives as a Date cell: midnight of that day in the spreadsheet's zone. */
export function toCellArgument(arg: unknown, timeZone: string): unknown {
  if (arg && typeof arg === 'object' && !Array.isArray(arg)) {
    const date = (arg as Record<string, unknown>).date;
    if (typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date)) return midnightIn(date, timeZone);
  }
  if (Array.isArray(arg)) return arg.map((a) => toCellArgument(a, timeZone));
  return arg;
}

function midnightIn(ymd: string, timeZone: string): Date {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  return new Date(wallTimeToEpoch(Date.UTC(y, m - 1, d), timeZone));
}
