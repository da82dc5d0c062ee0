import { isValidTimeZone } from './timezone.js';

export type Plan = 'starter' | 'pro' | 'plus';
export const PLANS: readonly Plan[] = ['starter', 'pro', 'plus'];

/** What the data set is generated from: the CLI flags and the keys of POST /_emulator/reset. */
export interface DataOptions {
  seed: number;
  orders: number;
  products: number;
  days: number;
  plan: Plan;
  timezone: string;
  currency: string;
  taxTreatedAsCost: boolean;
  /** Fixed generation instant (ms); null = the clock's now rounded down to the hour. */
  now: number | null;
}

export interface EmulatorOptions extends DataOptions {
  port: number;
  host: string;
  redirectUris: string[];
}

export const DEFAULT_OPTIONS: EmulatorOptions = {
  port: 8787,
  host: '127.0.0.1',
  seed: 1,
  orders: 2000,
  products: 60,
  days: 400,
  plan: 'plus',
  timezone: 'America/New_York',
  currency: 'USD',
  taxTreatedAsCost: false,
  now: null,
  redirectUris: [],
};

/** The largest store generated: the BigQuery bench's 1,000,000 orders (bench/bigquery.bench.ts). */
export const MAX_ORDERS = 1_000_000;

export class OptionError extends Error {}

function integerIn(name: string, value: unknown, min: number, max: number): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw new OptionError(`${name} must be an integer from ${min} to ${max}`);
  }
  return n;
}

function booleanOf(name: string, value: unknown): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new OptionError(`${name} must be true or false`);
}

/**
 * Validates option values given by name (snake_case, as the reset body and CLI flags spell them)
 * and merges them over `base`. Unknown names are rejected so that a typo is not silently ignored.
 */
export function mergeOptions(base: EmulatorOptions, given: Record<string, unknown>): EmulatorOptions {
  const out: EmulatorOptions = { ...base, redirectUris: [...base.redirectUris] };
  for (const [key, value] of Object.entries(given)) {
    switch (key) {
      case 'port':
        out.port = integerIn('port', value, 0, 65535);
        break;
      case 'seed':
        out.seed = integerIn('seed', value, 0, 2 ** 32 - 1);
        break;
      case 'orders':
        out.orders = integerIn('orders', value, 0, MAX_ORDERS);
        break;
      case 'products':
        out.products = integerIn('products', value, 1, 5000);
        break;
      case 'days':
        out.days = integerIn('days', value, 1, 3650);
        break;
      case 'plan':
        if (typeof value !== 'string' || !PLANS.includes(value as Plan))
          throw new OptionError('plan must be one of starter, pro, plus');
        out.plan = value as Plan;
        break;
      case 'timezone':
        if (typeof value !== 'string' || !isValidTimeZone(value))
          throw new OptionError('timezone must be an IANA time zone name');
        out.timezone = value;
        break;
      case 'currency':
        if (typeof value !== 'string' || !/^[A-Z]{3}$/.test(value))
          throw new OptionError('currency must be a three-letter code');
        out.currency = value;
        break;
      case 'tax_treated_as_cost':
        out.taxTreatedAsCost = booleanOf(key, value);
        break;
      case 'now': {
        const ms = typeof value === 'string' ? Date.parse(value) : NaN;
        if (value !== null && !Number.isFinite(ms)) throw new OptionError('now must be an RFC 3339 timestamp or null');
        out.now = value === null ? null : ms;
        break;
      }
      case 'redirect_uris':
      case 'redirect_uri': {
        const list = Array.isArray(value) ? value : [value];
        if (!list.every((u): u is string => typeof u === 'string' && isAbsoluteUrl(u)))
          throw new OptionError(`${key} must be absolute URLs`);
        out.redirectUris = list;
        break;
      }
      default:
        throw new OptionError(`unknown option ${key}`);
    }
  }
  return out;
}

function isAbsoluteUrl(value: string): boolean {
  try {
    return new URL(value).protocol.length > 0;
  } catch {
    return false;
  }
}

/** Parses `--name value` flags (`--redirect-uri` repeatable) into an options object. */
export function parseCliArgs(argv: readonly string[], base: EmulatorOptions = DEFAULT_OPTIONS): EmulatorOptions {
  const given: Record<string, unknown> = {};
  const redirects: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (!flag.startsWith('--')) throw new OptionError(`unexpected argument ${flag}`);
    let name = flag.slice(2);
    let value: string | undefined;
    const eq = name.indexOf('=');
    if (eq >= 0) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    } else if (name === 'tax-treated-as-cost' && (argv[i + 1] === undefined || argv[i + 1]!.startsWith('--'))) {
      value = 'true';
    } else {
      value = argv[++i];
    }
    if (value === undefined) throw new OptionError(`${flag} needs a value`);
    const key = name.replace(/-/g, '_');
    if (key === 'redirect_uri') redirects.push(value);
    else given[key] = value;
  }
  if (redirects.length > 0) given.redirect_uris = redirects;
  return mergeOptions(base, given);
}
