import {
  CONNECTION_PROPERTY_KEY,
  COPIED_CONNECTION_PROPERTY_KEY,
  STORE_TAG_NAME_PROPERTY_KEY,
  STORE_TAG_PROPERTY_KEY,
} from './constants';
import type { ConnectionRecord, StoreRef } from './types';
import { documentProperties } from '../platform/properties';
import { clipText } from '../platform/property-size';
import { bindingId, bindingOf, type Binding } from './spreadsheet-binding';

const STATES: ReadonlyArray<ConnectionRecord['state']> = [
  'connected',
  'revoked',
  'store_changed',
  'invalid_claims',
  'missing_scope',
  'lapsed',
  'operator_problem',
];

/**
 * The document's connection record, or null when it has none, an unreadable one, or one written
 * for another spreadsheet (this one is a copy: the spreadsheet binding).
 */
export function readConnectionRecord(): ConnectionRecord | null {
  const stored = readStoredConnectionRecord();
  return stored && stored.binding !== 'copy' ? stored.record : null;
}

/** The record as stored, with the spreadsheet it was written for. */
export function readStoredConnectionRecord(): { record: ConnectionRecord; binding: Binding } | null {
  const raw = documentProperties().getProperty(CONNECTION_PROPERTY_KEY);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<ConnectionRecord>;
    if (!value || !STATES.includes(value.state as ConnectionRecord['state'])) return null;
    return { binding: bindingOf(value.spreadsheetId), record: recordOf(value) };
  } catch {
    return null;
  }
}

function recordOf(value: Partial<ConnectionRecord>): ConnectionRecord {
  return {
    state: value.state as ConnectionRecord['state'],
    store: isStoreRef(value.store) ? value.store : null,
    scopes: Array.isArray(value.scopes) ? value.scopes.filter((s) => typeof s === 'string') : [],
    detail: value.detail ?? null,
    otherStore: isStoreRef(value.otherStore) ? value.otherStore : null,
    since: typeof value.since === 'string' ? value.since : new Date(0).toISOString(),
    connectedBy: typeof value.connectedBy === 'string' && value.connectedBy !== '' ? value.connectedBy : null,
    spreadsheetId: typeof value.spreadsheetId === 'string' && value.spreadsheetId !== '' ? value.spreadsheetId : null,
  };
}

/** Writes the record; who connected is kept from the previous record unless given. */
export function writeConnectionRecord(record: Omit<ConnectionRecord, 'since'>): ConnectionRecord {
  const connectedBy =
    record.connectedBy !== undefined ? record.connectedBy : (readConnectionRecord()?.connectedBy ?? null);
  const full: ConnectionRecord = {
    ...record,
    connectedBy: connectedBy ? clipText(connectedBy, 320) : null,
    since: new Date().toISOString(),
  };
  storeRecord(full);
  return full;
}

/** A record an older version wrote (no spreadsheet id), bound to this spreadsheet as it is (the copy guard decides when). */
export function bindConnectionRecord(record: ConnectionRecord): void {
  storeRecord(record);
}

/** Stored with this spreadsheet's id; a connection of its own replaces any note that a copied one was refused. */
function storeRecord(record: ConnectionRecord): void {
  try {
    const props = documentProperties();
    props.setProperty(CONNECTION_PROPERTY_KEY, JSON.stringify({ ...record, spreadsheetId: bindingId() }));
    props.deleteProperty(COPIED_CONNECTION_PROPERTY_KEY);
  } catch {
    // Read-only context (a custom function): the next trigger or sidebar run records the state.
  }
}

export function clearConnectionRecord(): void {
  const props = documentProperties();
  props.deleteProperty(CONNECTION_PROPERTY_KEY);
  props.deleteProperty(COPIED_CONNECTION_PROPERTY_KEY);
}

/** The store id this document's sheets belong to, or null before the first sync wrote any. */
export function storeTag(): string | null {
  const tag = documentProperties().getProperty(STORE_TAG_PROPERTY_KEY);
  return tag ? tag : null;
}

/** The store name recorded with the tag, to name it in messages. */
export function storeTagName(): string | null {
  const name = documentProperties().getProperty(STORE_TAG_NAME_PROPERTY_KEY);
  return name ? name : null;
}

/** Tags the document's sheets with the store they hold (sync calls it before its first write). */
export function setStoreTag(storeId: string, storeName?: string): void {
  if (typeof storeId !== 'string' || storeId.trim() === '') throw new Error('setStoreTag needs a store id.');
  const values: Record<string, string> = { [STORE_TAG_PROPERTY_KEY]: storeId };
  const connected = readConnectionRecord();
  const name =
    storeName || (connected && connected.store && connected.store.id === storeId ? connected.store.name : '');
  if (name) values[STORE_TAG_NAME_PROPERTY_KEY] = name;
  documentProperties().setProperties(values);
}

function isStoreRef(value: unknown): value is StoreRef {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as StoreRef).id === 'string' &&
    typeof (value as StoreRef).name === 'string'
  );
}
