import vm from 'node:vm';
import type { HandleDescriptor, WireBlob, WireError } from '../bridge/protocol.js';
import { isWireMarker } from '../bridge/protocol.js';
import type { HostChannel } from './host-channel.js';

interface Intrinsics {
  Array: ArrayConstructor;
  Object: ObjectConstructor;
  Date: DateConstructor;
  Error: ErrorConstructor;
}

/** A worker-side Utilities.newBlob(): its bytes travel to the host when passed to a service. */
export interface LocalBlobState {
  bytes: Buffer;
  contentType: string | null;
  name: string | null;
}

/** Objects crossing between the worker and one vm context (script or library). */
export class Realm {
  readonly intrinsics: Intrinsics;
  private readonly proxies = new Map<number, object>();
  private readonly proxyIds = new WeakMap<object, number>();
  readonly blobs = new WeakMap<object, LocalBlobState>();

  constructor(
    readonly context: vm.Context,
    private readonly channel: HostChannel,
  ) {
    this.intrinsics = vm.runInContext('({ Array, Object, Date, Error })', context) as Intrinsics;
  }

  newArray(items: unknown[]): unknown[] {
    return this.intrinsics.Array.from(items);
  }

  newObject(): Record<string, unknown> {
    return new this.intrinsics.Object() as Record<string, unknown>;
  }

  /** An Error of the context's own realm, named like Apps Script's service exceptions. */
  newError(error: WireError): Error {
    const err = new this.intrinsics.Error(error.message);
    err.name = error.name;
    return err;
  }

  /** Host value (already structured-cloned into the worker) → value of the context's realm. */
  importValue(value: unknown): unknown {
    if (value === null || typeof value !== 'object') return value;
    if (value instanceof Date) return new this.intrinsics.Date(value.getTime());
    if (Array.isArray(value)) return this.newArray(value.map((v) => this.importValue(v)));
    if (isWireMarker(value) && value.__gas === 'handle') return this.proxyFor(value.handle);
    const out = this.newObject();
    for (const [k, v] of Object.entries(value)) out[k] = this.importValue(v);
    return out;
  }

  /** Context value → plain data the host can receive (proxies become refs, blobs their bytes). */
  exportValue(value: unknown, depth = 0): unknown {
    if (depth > 64) throw this.newError({ name: 'Exception', message: 'Argument too deeply nested' });
    if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value;
    if (Object.prototype.toString.call(value) === '[object Date]') return new Date((value as Date).getTime());
    const proxyId = this.proxyIds.get(value);
    if (proxyId !== undefined) return { __gas: 'ref', id: proxyId };
    const blob = this.blobs.get(value);
    if (blob) {
      const wire: WireBlob = {
        __gas: 'blob',
        bytes: Array.from(blob.bytes),
        contentType: blob.contentType,
        name: blob.name,
      };
      return wire;
    }
    if (Array.isArray(value)) return value.map((v) => this.exportValue(v, depth + 1));
    if (ArrayBuffer.isView(value)) return Array.from(value as Uint8Array);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== 'function') out[k] = this.exportValue(v, depth + 1);
    }
    return out;
  }

  call(handle: number, method: string, args: unknown[]): unknown {
    const reply = this.channel.request({ type: 'call', handle, method, args: args.map((a) => this.exportValue(a)) });
    if (!reply.ok) throw this.newError(reply.error);
    return this.importValue(reply.value);
  }

  proxyFor(descriptor: HandleDescriptor): object {
    const existing = this.proxies.get(descriptor.id);
    if (existing) return existing;
    const proxy = this.newObject();
    for (const method of descriptor.methods) {
      const invoke = this.methodFor(descriptor, method, proxy);
      Object.defineProperty(proxy, method, { value: invoke, enumerable: false, writable: true, configurable: true });
    }
    for (const [key, nested] of Object.entries(descriptor.nested)) {
      Object.defineProperty(proxy, key, { value: this.proxyFor(nested), enumerable: true });
    }
    for (const [key, constant] of Object.entries(descriptor.constants)) {
      Object.defineProperty(proxy, key, { value: this.importValue(constant), enumerable: true });
    }
    Object.defineProperty(proxy, 'toString', {
      value: () => descriptor.name.slice(descriptor.name.lastIndexOf('.') + 1),
      enumerable: false,
    });
    this.proxies.set(descriptor.id, proxy);
    this.proxyIds.set(proxy, descriptor.id);
    return proxy;
  }

  private methodFor(descriptor: HandleDescriptor, method: string, proxy: object): (...args: unknown[]) => unknown {
    // HtmlTemplate properties are assigned on the script's side (template.data = x): send them along.
    if (descriptor.name === 'HtmlTemplate' && method === 'evaluate') {
      return () => this.call(descriptor.id, method, [{ ...proxy }]);
    }
    return (...args: unknown[]) => this.call(descriptor.id, method, args);
  }
}
