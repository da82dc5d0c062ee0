import type { HandleDescriptor, WireBlob, WireHandle } from './protocol.js';
import { isWireMarker } from './protocol.js';

/** The host objects one execution can reach, by handle id. */
interface HandleEntry {
  object: object;
  name: string;
  /** The root service the object descends from, e.g. "SpreadsheetApp". */
  family: string;
}

type HostConstructor = { gasName?: string; hostOnlyMethods?: readonly string[]; name: string };

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isClassInstance(value: unknown): value is object {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !isPlainObject(value)
  );
}

function exposedMethods(object: object): string[] {
  const ctor = object.constructor as HostConstructor;
  const hidden = new Set(ctor.hostOnlyMethods ?? []);
  const names = new Set<string>();
  for (
    let proto = Object.getPrototypeOf(object);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor' || key.startsWith('_') || hidden.has(key)) continue;
      const desc = Object.getOwnPropertyDescriptor(proto, key);
      if (desc && typeof desc.value === 'function') names.add(key);
    }
  }
  return [...names];
}

/** Turns a host object (blob from a worker) into whatever the service expects; set by the runtime. */
export type BlobReviver = (blob: WireBlob) => object;

export class HandleTable {
  private readonly entries = new Map<number, HandleEntry>();
  private readonly ids = new WeakMap<object, number>();
  private nextId = 1;

  constructor(private readonly reviveBlob: BlobReviver) {}

  entry(id: number): HandleEntry | undefined {
    return this.entries.get(id);
  }

  /** Describes a host object for the worker, registering it (and its nested services). */
  describe(object: object, name: string, family: string): HandleDescriptor {
    let id = this.ids.get(object);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(object, id);
      this.entries.set(id, { object, name, family });
    }
    const nested: Record<string, HandleDescriptor> = {};
    const constants: Record<string, unknown> = {};
    for (const key of Object.keys(object)) {
      if (!/^[A-Z]/.test(key)) continue;
      const value = (object as Record<string, unknown>)[key];
      if (isClassInstance(value)) nested[key] = this.describe(value, `${name}.${key}`, family);
      else constants[key] = value;
    }
    return { id, name, methods: exposedMethods(object), nested, constants };
  }

  /** Encodes a host method's result for the worker: class instances become handles. */
  encode(value: unknown, family: string): unknown {
    if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value;
    if (value instanceof Date) return value;
    if (value instanceof Uint8Array) return Array.from(value);
    if (Array.isArray(value)) return value.map((item) => this.encode(item, family));
    if (isPlainObject(value)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.encode(v, family);
      return out;
    }
    const ctor = value.constructor as HostConstructor;
    const handle: WireHandle = { __gas: 'handle', handle: this.describe(value, ctor.gasName ?? ctor.name, family) };
    return handle;
  }

  /** Decodes a script's argument: proxies become their host objects again. */
  decode(value: unknown): unknown {
    if (value === null || typeof value !== 'object') return value;
    if (value instanceof Date) return value;
    if (Array.isArray(value)) return value.map((item) => this.decode(item));
    if (isWireMarker(value)) {
      if (value.__gas === 'ref') {
        const entry = this.entries.get(value.id);
        if (!entry) throw new Error('Invalid argument: object from another execution');
        return entry.object;
      }
      if (value.__gas === 'blob') return this.reviveBlob(value);
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = this.decode(v);
    return out;
  }
}
