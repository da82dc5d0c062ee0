/**
 * Google allows 20 triggers per user per script (guides/services/quotas, "Triggers: 20 / user /
 * script"); the 21st fails with "This script has too many triggers…", which says nothing to a
 * finance user, and the triggers are invisible outside the spreadsheets that made them. Past the
 * cap the sidebar says so and lists the user's other scheduled spreadsheets from the registry
 * (the schedule registry). One openById cannot open because it was deleted or is no longer shared
 * ("Document … is missing (perhaps it was deleted, or you don't have read access?)") is said as gone
 * and its trigger removed there and then: the user is present, and that error names the file, not
 * an outage; any other failure is listed as not readable just now and left alone.
 */
import { forgetScheduleTrigger, scheduleTriggers } from './schedule-registry';
import { counted } from '../../contract/counts-text';

export const TRIGGERS_PER_USER = 20;
const GONE = /is missing|do not have permission|don't have (read )?access/i;

type Found = { kind: 'open'; name: string } | { kind: 'gone' } | { kind: 'unreadable' };

function look(spreadsheetId: string): Found {
  try {
    return { kind: 'open', name: SpreadsheetApp.openById(spreadsheetId).getName() };
  } catch (error) {
    return GONE.test(error instanceof Error ? error.message : String(error))
      ? { kind: 'gone' }
      : { kind: 'unreadable' };
  }
}

/** Null while the user has room for another trigger; else the sidebar's message (gone schedules removed). */
export function triggerCapMessage(): string | null {
  const triggers = ScriptApp.getProjectTriggers();
  if (triggers.length < TRIGGERS_PER_USER) return null;
  const registry = scheduleTriggers();
  const lines: string[] = [];
  let removed = 0;
  let unrecorded = 0;
  for (const trigger of triggers) {
    const uid = trigger.getUniqueId();
    const spreadsheetId = registry[uid];
    if (!spreadsheetId) {
      unrecorded += 1;
      continue;
    }
    const found = look(spreadsheetId);
    if (found.kind === 'gone') {
      ScriptApp.deleteTrigger(trigger);
      forgetScheduleTrigger(uid);
      removed += 1;
      console.log(`[schedule] trigger ${uid} removed: its spreadsheet ${spreadsheetId} is gone for this user`);
      lines.push(`• ${spreadsheetId}: gone (deleted, or no longer shared with you): its schedule was removed now`);
    } else if (found.kind === 'open') lines.push(`• "${found.name}" (${spreadsheetId})`);
    else lines.push(`• ${spreadsheetId}: could not be opened just now`);
  }
  if (unrecorded > 0)
    lines.push(
      `• ${counted(unrecorded, 'other trigger', 'other triggers')} of this add-on without a recorded spreadsheet`,
    );
  const step =
    removed > 0
      ? 'That made room: choose the schedule again.'
      : 'To schedule this one, open a spreadsheet that no longer needs it, go to Extensions → Merchant Analytics → Open sidebar and set Sync automatically to Off; then turn it on here again.';
  return [
    `Google allows each Google account ${TRIGGERS_PER_USER} automatic schedules for this add-on, and yours has ${triggers.length}. Your scheduled spreadsheets:`,
    ...lines,
    step,
  ].join('\n');
}
