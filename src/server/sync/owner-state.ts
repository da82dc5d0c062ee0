/**
 * Keeps the schedule owner's copy of the document state (the owner copy) and the document
 * properties in step, from the owner's executions that have the document: what a documentless
 * scheduled run wrote is adopted first, and the copy is taken afresh after a sync run, so the next
 * documentless run starts from what every editor's runs left.
 */
import { currentUserEmail, documentLock } from '../auth';
import { currentSpreadsheetId } from '../platform/context';
import { adoptOwnerCopy, takeOwnerCopy } from '../platform/owner-copy';
import { forgetOwnerCopyNote, ownerCopyNoted } from '../platform/owner-copy-note';
import { realDocumentProperties } from '../platform/properties';
import { scheduleOwnership } from './schedule';
import { ledgerRiding } from './trigger-allowance';

function ownersDocument(): { id: string; document: GoogleAppsScript.Properties.Properties } | null {
  const document = realDocumentProperties();
  if (!document) return null;
  const { owner } = scheduleOwnership();
  const me = currentUserEmail();
  if (!owner || owner !== me) return null;
  const id = currentSpreadsheetId();
  return id ? { id, document } : null;
}

/**
 * Under the document lock: folds a documentless run's writes into the document properties.
 * `byRun`: a sync run's start, which looks for written keys before touching the owner-copy note.
 */
export function adoptScheduledRunState(byRun = false): string[] {
  const owners = ownersDocument();
  return owners ? adoptOwnerCopy(owners.id, owners.document, byRun) : [];
}

/**
 * Under the document lock, after a run with the document: the owner's copy follows the document.
 * A scheduled run's trigger-minute ledger rides with its write (its read from the copy's whole read).
 */
export function refreshOwnerCopy(): void {
  const owners = ownersDocument();
  if (owners) takeOwnerCopy(owners.id, owners.document, (stored) => ledgerRiding(stored, Date.now()));
}

/**
 * The sidebar (polling, with the document): folds in a documentless run's writes when the
 * document is free; a busy document (a sync holds it and adopts them itself) is left alone.
 */
export function adoptScheduledRunStateIfFree(): void {
  if (!ownersDocument()) return;
  const lock = documentLock();
  const held = lock.hasLock();
  if (!held && !lock.tryLock(1_000)) return;
  try {
    adoptScheduledRunState();
  } finally {
    if (!held) lock.releaseLock();
  }
}

/**
 * The open sidebar's poll: adopts a documentless run as soon as it has written, so the stamp shows
 * it within a poll. Idle it costs one user-cache read and no property (the owner-copy note).
 */
export function adoptNotedScheduledRun(): void {
  if (!ownerCopyNoted(currentSpreadsheetId)) return;
  if (ownersDocument()) adoptScheduledRunStateIfFree();
  else {
    // Not this user's copy to adopt (the schedule changed hands): the note would be read at every poll.
    const id = currentSpreadsheetId();
    if (id) forgetOwnerCopyNote(id);
  }
}
