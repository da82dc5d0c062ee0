/**
 * A connection made while Google gave no e-mail (userinfo.email withheld: granular consent,
 * developers.google.com/apps-script/concepts/scopes) names nobody. It is the connecting user's
 * (their properties hold its refresh token), and once Google says who they are the record names
 * them, so every editor's sidebar, the schedule and the failure e-mails know whose it is.
 */
import { bindConnectionRecord, readConnectionRecord } from './connection-record';
import { currentUserEmail, holdsConnection } from './token-home';
import type { ConnectionRecord } from './types';

/** The record, now naming this user when it named nobody, is theirs, and Google says who they are. */
export function nameUnnamedConnection(): ConnectionRecord | null {
  const record = readConnectionRecord();
  if (!record || record.connectedBy) return record;
  const me = currentUserEmail();
  if (me === '' || !holdsConnection()) return record;
  const named = { ...record, connectedBy: me };
  bindConnectionRecord(named);
  return named;
}
