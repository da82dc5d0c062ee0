import { randomBytes } from 'node:crypto';
import type { ExecutionServiceContext } from '../types.js';
import { refuseInCustomFunction } from '../types.js';

export type TriggerType = 'CLOCK' | 'ON_OPEN' | 'ON_EDIT' | 'ON_CHANGE' | 'ON_FORM_SUBMIT';

function isIanaZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export interface TriggerRecord {
  uid: string;
  handlerFunction: string;
  type: TriggerType;
  everyHours?: number;
  everyDays?: number;
  everyWeeks?: number;
  atHour?: number;
  nearMinute?: number;
  /** The zone atHour is read in; without inTimezone Apps Script uses the script's time zone. */
  timeZone?: string;
  /** The document the (add-on) trigger belongs to. */
  documentId: string;
  userEmail: string;
}

/** Where triggers are created: the current document and user. */
export interface TriggerScope {
  records: TriggerRecord[];
  documentId: string;
  userEmail: string;
  ctx: ExecutionServiceContext;
}

const VALID_EVERY_HOURS = [1, 2, 4, 6, 8, 12];
const MAX_TRIGGERS_PER_USER = 20;
const TYPE_WORDS: Record<TriggerType, string> = {
  CLOCK: 'time-based',
  ON_OPEN: 'open',
  ON_EDIT: 'edit',
  ON_CHANGE: 'change',
  ON_FORM_SUBMIT: 'form submit',
};

function addTrigger(scope: TriggerScope, record: Omit<TriggerRecord, 'uid' | 'documentId' | 'userEmail'>): Trigger {
  // An add-on's trigger belongs to a document; an execution without one has none to give it (stricter reading).
  if (scope.ctx.document === false) throw new Error('Add-ons can only create triggers for the current document.');
  const mine = scope.records.filter((t) => t.userEmail === scope.userEmail);
  if (mine.some((t) => t.documentId === scope.documentId && t.type === record.type)) {
    // Editor add-ons: one trigger of each type per user per document.
    throw new Error(
      `This add-on has created too many ${TYPE_WORDS[record.type]} triggers in this document for this Google user account.`,
    );
  }
  if (mine.length >= MAX_TRIGGERS_PER_USER) {
    throw new Error(
      'This script has too many triggers. Triggers must be deleted from the script before more can be added.',
    );
  }
  const full: TriggerRecord = {
    ...record,
    uid: String(BigInt(`0x${randomBytes(7).toString('hex')}`)),
    documentId: scope.documentId,
    userEmail: scope.userEmail,
  };
  scope.records.push(full);
  return new Trigger(full);
}

/** Google's `Trigger`. */
export class Trigger {
  constructor(readonly record: TriggerRecord) {}

  getHandlerFunction(): string {
    return this.record.handlerFunction;
  }

  getUniqueId(): string {
    return this.record.uid;
  }

  getEventType(): TriggerType {
    return this.record.type;
  }

  getTriggerSource(): string {
    return this.record.type === 'CLOCK' ? 'CLOCK' : 'SPREADSHEETS';
  }

  getTriggerSourceId(): string | null {
    return this.record.type === 'CLOCK' ? null : this.record.documentId;
  }
}

/** Google's `ClockTriggerBuilder`, under the Editor add-on rules (at most once an hour). */
export class ClockTriggerBuilder {
  private everyMinutesValue: number | undefined;
  private everyHoursValue: number | undefined;
  private everyDaysValue: number | undefined;
  private everyWeeksValue: number | undefined;
  private atHourValue: number | undefined;
  private nearMinuteValue: number | undefined;
  private timeZoneValue: string | undefined;

  constructor(
    private readonly scope: TriggerScope,
    private readonly handlerFunction: string,
  ) {}

  everyMinutes(n: unknown): ClockTriggerBuilder {
    this.everyMinutesValue = Number(n);
    return this;
  }

  everyHours(n: unknown): ClockTriggerBuilder {
    this.everyHoursValue = Number(n);
    return this;
  }

  everyDays(n: unknown): ClockTriggerBuilder {
    const days = Number(n);
    if (!Number.isInteger(days) || days < 1) throw new Error('Invalid argument: n');
    this.everyDaysValue = days;
    return this;
  }

  everyWeeks(n: unknown): ClockTriggerBuilder {
    const weeks = Number(n);
    if (!Number.isInteger(weeks) || weeks < 1) throw new Error('Invalid argument: n');
    this.everyWeeksValue = weeks;
    return this;
  }

  atHour(hour: unknown): ClockTriggerBuilder {
    const h = Number(hour);
    if (!Number.isInteger(h) || h < 0 || h > 23) throw new Error('Invalid argument: hour');
    this.atHourValue = h;
    return this;
  }

  nearMinute(minute: unknown): ClockTriggerBuilder {
    const m = Number(minute);
    if (!Number.isInteger(m) || m < 0 || m > 59) throw new Error('Invalid argument: minute');
    this.nearMinuteValue = m;
    return this;
  }

  onWeekDay(): ClockTriggerBuilder {
    return this;
  }

  inTimezone(timezone: unknown): ClockTriggerBuilder {
    if (typeof timezone !== 'string' || !isIanaZone(timezone)) throw new Error('Invalid argument: timezone');
    this.timeZoneValue = timezone;
    return this;
  }

  create(): Trigger {
    const hours = this.everyHoursValue;
    if (this.everyMinutesValue !== undefined || (hours !== undefined && hours < 1)) {
      throw new Error('Add-ons can only create time-based triggers that run at most once per hour.');
    }
    if (hours !== undefined && !VALID_EVERY_HOURS.includes(hours)) {
      throw new Error('The number of hours between triggers must be 1, 2, 4, 6, 8 or 12.');
    }
    if (hours === undefined && this.everyDaysValue === undefined && this.everyWeeksValue === undefined) {
      throw new Error(
        'A time-based trigger needs a recurrence: call everyHours, everyDays or everyWeeks before create().',
      );
    }
    if (this.atHourValue !== undefined && hours !== undefined)
      throw new Error('atHour cannot be combined with everyHours.');
    return addTrigger(this.scope, {
      handlerFunction: this.handlerFunction,
      type: 'CLOCK',
      everyHours: hours,
      everyDays: this.everyDaysValue,
      everyWeeks: this.everyWeeksValue,
      atHour: this.atHourValue,
      nearMinute: this.nearMinuteValue,
      ...(this.timeZoneValue !== undefined ? { timeZone: this.timeZoneValue } : {}),
    });
  }
}

/** Google's `SpreadsheetTriggerBuilder` (the current document only, as add-ons must). */
export class SpreadsheetTriggerBuilder {
  private type: TriggerType | undefined;

  constructor(
    private readonly scope: TriggerScope,
    private readonly handlerFunction: string,
  ) {}

  onOpen(): SpreadsheetTriggerBuilder {
    this.type = 'ON_OPEN';
    return this;
  }

  onEdit(): SpreadsheetTriggerBuilder {
    this.type = 'ON_EDIT';
    return this;
  }

  onChange(): SpreadsheetTriggerBuilder {
    this.type = 'ON_CHANGE';
    return this;
  }

  onFormSubmit(): SpreadsheetTriggerBuilder {
    this.type = 'ON_FORM_SUBMIT';
    return this;
  }

  create(): Trigger {
    if (!this.type) throw new Error('Choose an event (onOpen, onEdit, onChange, onFormSubmit) before create().');
    return addTrigger(this.scope, { handlerFunction: this.handlerFunction, type: this.type });
  }
}

/** Google's `TriggerBuilder`. */
export class TriggerBuilder {
  constructor(
    private readonly scope: TriggerScope,
    private readonly handlerFunction: string,
  ) {}

  timeBased(): ClockTriggerBuilder {
    return new ClockTriggerBuilder(this.scope, this.handlerFunction);
  }

  forSpreadsheet(spreadsheet: unknown): SpreadsheetTriggerBuilder {
    const id = typeof spreadsheet === 'string' ? spreadsheet : (spreadsheet as { getId?: () => string })?.getId?.();
    if (id !== this.scope.documentId) throw new Error('Add-ons can only create triggers for the current document.');
    return new SpreadsheetTriggerBuilder(this.scope, this.handlerFunction);
  }
}

export function newTriggerBuilder(scope: TriggerScope, functionName: unknown): TriggerBuilder {
  refuseInCustomFunction(scope.ctx, 'ScriptApp.newTrigger');
  if (typeof functionName !== 'string' || functionName === '') throw new Error('Invalid argument: functionName');
  return new TriggerBuilder(scope, functionName);
}
