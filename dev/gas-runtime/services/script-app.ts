import type { RuntimeClock } from '../clock.js';
import { refuseInCustomFunction } from '../types.js';
import { StateTokenBuilder, type StateTokenCodec } from './state-token.js';
import { newTriggerBuilder, Trigger, type TriggerBuilder, type TriggerScope } from './triggers.js';

const weekDays = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;

function enumOf<T extends string>(...names: T[]): Readonly<Record<T, T>> {
  return Object.freeze(Object.fromEntries(names.map((n) => [n, n])) as Record<T, T>);
}

export interface ScriptAppSettings {
  scriptId: string;
  oauthScopes: string[];
  clock: RuntimeClock;
  codec: StateTokenCodec;
  /** The loopback web app URL once the callback server runs, else null. */
  serviceUrl: () => string | null;
}

/** Google's `AuthorizationInfo`: everything is authorized locally. */
export class AuthorizationInfo {
  constructor(private readonly scopes: string[]) {}

  getAuthorizationStatus(): string {
    return 'NOT_REQUIRED';
  }

  getAuthorizationUrl(): string | null {
    return null;
  }

  getAuthorizedScopes(): string[] {
    return [...this.scopes];
  }
}

/** Google's `Service` (the script's web app). */
export class Service {
  constructor(private readonly url: string | null) {}

  getUrl(): string | null {
    return this.url;
  }

  isEnabled(): boolean {
    return this.url !== null;
  }
}

export class ScriptApp {
  readonly AuthMode = enumOf('NONE', 'CUSTOM_FUNCTION', 'LIMITED', 'FULL');
  readonly AuthorizationStatus = enumOf('REQUIRED', 'NOT_REQUIRED');
  readonly EventType = enumOf('CLOCK', 'ON_OPEN', 'ON_EDIT', 'ON_FORM_SUBMIT', 'ON_CHANGE', 'ON_EVENT_UPDATED');
  readonly TriggerSource = enumOf('SPREADSHEETS', 'CLOCK', 'FORMS', 'DOCUMENTS', 'CALENDAR');
  readonly InstallationSource = enumOf('APPS_MARKETPLACE_DOMAIN_ADD_ON', 'NONE', 'WEB_STORE_ADD_ON');
  readonly WeekDay = enumOf(...weekDays);

  constructor(
    private readonly settings: ScriptAppSettings,
    private readonly triggers: TriggerScope,
  ) {}

  getScriptId(): string {
    return this.settings.scriptId;
  }

  getAuthorizationInfo(): AuthorizationInfo {
    return new AuthorizationInfo(this.settings.oauthScopes);
  }

  getInstallationSource(): string {
    return 'WEB_STORE_ADD_ON';
  }

  invalidateAuth(): void {
    // Nothing is authorized through Google locally.
  }

  getService(): Service {
    return new Service(this.settings.serviceUrl());
  }

  newStateToken(): StateTokenBuilder {
    return new StateTokenBuilder(this.settings.codec, this.settings.clock, this.triggers.userEmail);
  }

  newTrigger(functionName: unknown): TriggerBuilder {
    return newTriggerBuilder(this.triggers, functionName);
  }

  /** In an add-on: this user's triggers of this project. */
  getProjectTriggers(): Trigger[] {
    return this.triggers.records.filter((t) => t.userEmail === this.triggers.userEmail).map((t) => new Trigger(t));
  }

  /** This user's triggers of the given document ("a given account cannot see triggers installed from a second account"). */
  getUserTriggers(document: unknown): Trigger[] {
    const id = typeof document === 'string' ? document : (document as { getId?: () => string })?.getId?.();
    return this.triggers.records
      .filter((t) => t.userEmail === this.triggers.userEmail && t.documentId === id)
      .map((t) => new Trigger(t));
  }

  deleteTrigger(trigger: unknown): void {
    refuseInCustomFunction(this.triggers.ctx, 'ScriptApp.deleteTrigger');
    if (!(trigger instanceof Trigger)) throw new Error('Invalid argument: trigger');
    const index = this.triggers.records.findIndex((t) => t.uid === trigger.record.uid);
    if (index >= 0) this.triggers.records.splice(index, 1);
  }
}
