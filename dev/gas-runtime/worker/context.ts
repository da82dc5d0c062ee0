import vm from 'node:vm';
import type { HandleDescriptor } from '../bridge/protocol.js';
import type { HostChannel } from './host-channel.js';
import { Realm } from './realm.js';
import { createUtilities } from './utilities.js';
import { formatString } from './text-format.js';

/** Globals a fresh vm context has that Apps Script V8 does not. */
const ABSENT_GLOBALS = [
  'console',
  'WebAssembly',
  'SharedArrayBuffer',
  'Atomics',
  'FinalizationRegistry',
  'WeakRef',
  // The heap reset (garbageCollector) exposes it for a moment, process-wide.
  'gc',
];

/**
 * Makes the context's Date follow the runtime clock: `new Date()` and `Date.now()` read real time
 * plus the host's shared offset. Runs inside the context so Dates stay of the context's realm.
 */
const INSTALL_CLOCK = `(function (clockBuffer) {
  const offsets = new BigInt64Array(clockBuffer);
  const load = Atomics.load;
  const RealDate = Date;
  const realNow = RealDate.now;
  const now = function now() { return (load(offsets, 1) === 1n ? realNow() : 0) + Number(load(offsets, 0)); };
  const GasDate = function Date(...args) {
    if (!new.target) return new RealDate(now()).toString();
    return args.length === 0 ? new RealDate(now()) : new RealDate(...args);
  };
  GasDate.prototype = RealDate.prototype;
  GasDate.now = now;
  GasDate.parse = RealDate.parse;
  GasDate.UTC = RealDate.UTC;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: GasDate, writable: true, configurable: true });
  globalThis.Date = GasDate;
})`;

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'undefined';
  if (typeof value === 'object' && value !== null) {
    if (Object.prototype.toString.call(value) === '[object Date]') return String(value);
    if (Object.prototype.toString.call(value) === '[object Error]')
      return `${(value as Error).name}: ${(value as Error).message}`;
    try {
      return JSON.stringify(value);
    } catch {
      return String(value);
    }
  }
  return String(value);
}

function installLogging(realm: Realm, channel: HostChannel): void {
  const log = (line: string): void => {
    channel.request({ type: 'log', line });
  };
  const logged: string[] = [];
  const logger = realm.newObject();
  const loggerMethods: Record<string, (...args: unknown[]) => unknown> = {
    log: (first: unknown, ...rest: unknown[]) => {
      const line = rest.length > 0 && typeof first === 'string' ? formatString(first, rest) : describe(first);
      logged.push(line);
      log(line);
      return logger;
    },
    getLog: () => logged.join('\n'),
    clear: () => {
      logged.length = 0;
    },
  };
  for (const [k, fn] of Object.entries(loggerMethods))
    Object.defineProperty(logger, k, { value: fn, enumerable: false });
  const console = realm.newObject();
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    const prefix = level === 'log' || level === 'info' ? '' : `${level.toUpperCase()}: `;
    Object.defineProperty(console, level, {
      value: (...args: unknown[]) => log(prefix + args.map(describe).join(' ')),
      enumerable: false,
    });
  }
  realm.context.Logger = logger;
  realm.context.console = console;
}

export interface GasContext {
  realm: Realm;
  context: vm.Context;
}

/** A fresh V8 context with Apps Script's globals: the host services, Utilities, Logger, console. */
export function createGasContext(
  channel: HostChannel,
  clock: SharedArrayBuffer,
  roots: Record<string, HandleDescriptor>,
): GasContext {
  const context = vm.createContext({}, { codeGeneration: { strings: true, wasm: false } });
  (vm.runInContext(INSTALL_CLOCK, context) as (buffer: SharedArrayBuffer) => void)(clock);
  vm.runInContext(ABSENT_GLOBALS.map((name) => `delete globalThis.${name};`).join(''), context);
  const realm = new Realm(context, channel);
  for (const [name, descriptor] of Object.entries(roots)) {
    if (name === 'Utilities') continue;
    context[name] = realm.proxyFor(descriptor);
  }
  const hostUtilities = roots.Utilities
    ? (realm.proxyFor(roots.Utilities) as { sleep(ms: number): unknown })
    : undefined;
  context.Utilities = createUtilities(realm, (ms) => {
    if (!hostUtilities) throw realm.newError({ name: 'Exception', message: 'Utilities.sleep is unavailable' });
    return hostUtilities.sleep(ms);
  });
  installLogging(realm, channel);
  return { realm, context };
}
