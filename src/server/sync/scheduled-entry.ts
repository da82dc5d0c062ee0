/**
 * Where a scheduled run starts. Google may fire an add-on's clock trigger without its document
 * (apps-script-facts.md): the run then finds its spreadsheet through the trigger's id in its
 * owner's properties (recorded when the schedule was set) and opens it by id. Either way a trigger
 * the schedule no longer names (turned off or paused by another editor, replaced) removes itself.
 */
import { bindSpreadsheet, currentSpreadsheet, hasActiveDocument, MissingContextError } from '../platform/context';
import { markedScheduleTrigger } from './schedule-marker';
import { scheduleOwnership, parseSchedule } from './schedule';
import { deleteOwnTrigger, forgetScheduleTrigger, spreadsheetOfTrigger } from './schedule-registry';
import { documentProperties } from '../platform/properties';

const SCHEDULE_PROPERTY = 'ma.sync.schedule';

/**
 * With the document, the schedule record says; without it, the owner's copy may be behind another
 * editor's change, so the spreadsheet's own marker (schedule-marker.ts) decides.
 */
function namesThisTrigger(triggerUid: string): boolean {
  if (!hasActiveDocument()) {
    const marked = markedScheduleTrigger(currentSpreadsheet('checking the schedule'));
    if (marked !== undefined) return marked === triggerUid;
  }
  const { triggerUid: named } = scheduleOwnership();
  const inForce = parseSchedule(documentProperties().getProperty(SCHEDULE_PROPERTY)).kind !== 'off';
  // A record from an older version names no trigger: it still stands for this one.
  return inForce && (named === null || named === triggerUid);
}

export type ScheduledEntry = { run: true } | { run: false; message: string };

export function enterScheduledRun(triggerUid: string | null): ScheduledEntry {
  if (!hasActiveDocument()) {
    if (!triggerUid) throw new MissingContextError('the spreadsheet', 'a scheduled run without its document, and not started by its trigger');
    const spreadsheetId = spreadsheetOfTrigger(triggerUid);
    if (!spreadsheetId) {
      console.error(`[context] scheduled run: no spreadsheet recorded for trigger ${triggerUid}; the trigger removes itself`);
      deleteOwnTrigger(triggerUid);
      return { run: false, message: 'This scheduled sync does not know its spreadsheet any more (its record is gone); it removed its trigger. Turn the schedule on again from the sidebar.' };
    }
    bindSpreadsheet(spreadsheetId);
  }
  if (!triggerUid) return { run: true };
  if (namesThisTrigger(triggerUid)) return { run: true };
  deleteOwnTrigger(triggerUid);
  forgetScheduleTrigger(triggerUid);
  console.log(`[schedule] trigger ${triggerUid} is no longer this spreadsheet's schedule: removed`);
  return { run: false, message: 'The automatic sync was changed or turned off; this trigger removed itself.' };
}
