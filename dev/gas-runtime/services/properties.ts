import type { ExecutionServiceContext } from '../types.js';
import { hasDocument, refuseInCustomFunction } from '../types.js';

/** Apps Script's Properties limits (guides/services/quotas). */
export const MAX_PROPERTY_VALUE_BYTES = 9 * 1024;
export const MAX_PROPERTY_STORE_BYTES = 500 * 1024;

const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

/** One shared property store (script, document or user scope) that outlives executions. */
export class PropertyStore {
  private readonly values = new Map<string, string>();

  get(key: string): string | null {
    return this.values.get(key) ?? null;
  }

  set(key: string, value: string): void {
    this.setAll({ [key]: value }, false);
  }

  delete(key: string): void {
    this.values.delete(key);
  }

  deleteAll(): void {
    this.values.clear();
  }

  all(): Record<string, string> {
    return Object.fromEntries(this.values);
  }

  keys(): string[] {
    return [...this.values.keys()];
  }

  /** Checks every limit before changing anything, so a refused write loses nothing. */
  setAll(entries: Record<string, string>, deleteAllOthers: boolean): void {
    for (const value of Object.values(entries)) {
      if (byteLength(value) > MAX_PROPERTY_VALUE_BYTES) throw new Error('Exceeded maximum property size');
    }
    const next = new Map(deleteAllOthers ? [] : this.values);
    for (const [key, value] of Object.entries(entries)) next.set(key, value);
    let total = 0;
    for (const [key, value] of next) total += byteLength(key) + byteLength(value);
    if (total > MAX_PROPERTY_STORE_BYTES) {
      throw new Error('You have exceeded the property storage quota. Please remove some properties and try again.');
    }
    this.values.clear();
    for (const [key, value] of next) this.values.set(key, value);
  }

  toJSON(): Record<string, string> {
    return this.all();
  }

  static fromJSON(json: unknown): PropertyStore {
    const store = new PropertyStore();
    if (json && typeof json === 'object') {
      for (const [k, v] of Object.entries(json)) if (typeof v === 'string') store.values.set(k, v);
    }
    return store;
  }
}

function requireKey(key: unknown): string {
  if (key === null || key === undefined || key === '') throw new Error('Invalid argument: key');
  return String(key);
}

/** The script's view of one store: Google's `Properties` class. */
export class Properties {
  constructor(
    private readonly store: PropertyStore,
    private readonly ctx: ExecutionServiceContext,
  ) {}

  getProperty(key: unknown): string | null {
    return this.store.get(requireKey(key));
  }

  getProperties(): Record<string, string> {
    return this.store.all();
  }

  getKeys(): string[] {
    return this.store.keys();
  }

  setProperty(key: unknown, value: unknown): Properties {
    refuseInCustomFunction(this.ctx, 'Properties.setProperty');
    if (value === null || value === undefined) throw new Error('Invalid argument: value');
    this.store.set(requireKey(key), String(value));
    return this;
  }

  setProperties(properties: unknown, deleteAllOthers?: unknown): Properties {
    refuseInCustomFunction(this.ctx, 'Properties.setProperties');
    if (properties === null || typeof properties !== 'object') throw new Error('Invalid argument: properties');
    const entries: Record<string, string> = {};
    for (const [k, v] of Object.entries(properties)) entries[requireKey(k)] = String(v);
    this.store.setAll(entries, deleteAllOthers === true);
    return this;
  }

  deleteProperty(key: unknown): Properties {
    refuseInCustomFunction(this.ctx, 'Properties.deleteProperty');
    this.store.delete(requireKey(key));
    return this;
  }

  deleteAllProperties(): Properties {
    refuseInCustomFunction(this.ctx, 'Properties.deleteAllProperties');
    this.store.deleteAll();
    return this;
  }
}

export interface PropertyStores {
  script: PropertyStore;
  document: PropertyStore;
  /** The runtime's default user's store. */
  user: PropertyStore;
  /** Every other user's store, by e-mail (created on first use). */
  users: Record<string, PropertyStore>;
}

/** One user's store: the default user's is `stores.user`, any other's is made on first use. */
export function userPropertyStore(stores: PropertyStores, email: string, defaultEmail: string): PropertyStore {
  if (email === defaultEmail) return stores.user;
  return (stores.users[email] ??= new PropertyStore());
}

export class PropertiesService {
  constructor(
    private readonly stores: PropertyStores,
    private readonly ctx: ExecutionServiceContext,
    /** The store of the user this execution runs as (custom functions: the spreadsheet owner's, see below). */
    private readonly userStore: PropertyStore,
  ) {}

  getScriptProperties(): Properties {
    return new Properties(this.stores.script, this.ctx);
  }

  /** "Returns null when document properties are not available" (the callback, a documentless trigger). */
  getDocumentProperties(): Properties | null {
    if (!hasDocument(this.ctx)) return null;
    return new Properties(this.stores.document, this.ctx);
  }

  /**
   * The executing user's store. In a custom function Google documents it as the spreadsheet
   * owner's store: the runtime plays the default user as the owner (the wiring passes that store).
   */
  getUserProperties(): Properties {
    return new Properties(this.userStore, this.ctx);
  }
}
