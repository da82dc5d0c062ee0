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
  /** Granular consent (consent.ts): the scopes the executing user granted, of the manifest's. */
  consent: {
    enforced: boolean;
    granted: () => string[];
    /** Where the user grants `scopes` (the callback server's /authorize page). */
    authorizationUrl: (scopes: string[]) => string;
    /** requireScopes: ends the execution and shows the authorization prompt. */
    requireAuthorization: (scopes: string[]) => void;
  };
}

/**
 * Google's `AuthorizationInfo` (reference/script/authorization-info): REQUIRED while the user has
 * not granted one of the requested scopes (every manifest scope when none are named), with the
 * URL where they grant them; getAuthorizedScopes gives the granted ones "from the specified list".
 */
export class AuthorizationInfo {
  constructor(
    private readonly granted: string[],
    private readonly missing: string[],
    private readonly url: (scopes: string[]) => string,
  ) {}

  getAuthorizationStatus(): string {
    return this.missing.length > 0 ? 'REQUIRED' : 'NOT_REQUIRED';
  }

  getAuthorizationUrl(): string | null {
    return this.missing.length > 0 ? this.url(this.missing) : null;
  }

  getAuthorizedScopes(): string[] {
    return [...this.granted];
  }
}

function scopeList(method: string, scopes: unknown): string[] {
  if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string'))
    throw new Error(
      `The parameters (AuthMode,${typeof scopes}) don't match the method signature for ScriptApp.${method}.`,
    );
  return scopes as string[];
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

  /** `getAuthorizationInfo(authMode[, oAuthScopes])`: the same answer in every mode (the stricter reading). */
  getAuthorizationInfo(_authMode?: unknown, oAuthScopes?: unknown): AuthorizationInfo {
    const { consent, oauthScopes } = this.settings;
    const requested = oAuthScopes === undefined ? oauthScopes : scopeList('getAuthorizationInfo', oAuthScopes);
    const granted = consent.enforced ? consent.granted() : oauthScopes;
    return new AuthorizationInfo(
      requested.filter((s) => granted.includes(s)),
      consent.enforced ? requested.filter((s) => !granted.includes(s)) : [],
      consent.authorizationUrl,
    );
  }

  /**
   * reference/script/script-app#requireScopes(AuthMode,String): when the user has not granted one
   * of the scopes, "the current execution ends and an authorization prompt is rendered" — the
   * runtime ends it (no catch or finally runs, the stricter reading) and records the prompt.
   */
  requireScopes(_authMode: unknown, oAuthScopes: unknown): void {
    const info = this.getAuthorizationInfo(_authMode, scopeList('requireScopes', oAuthScopes));
    if (info.getAuthorizationStatus() === 'REQUIRED')
      this.settings.consent.requireAuthorization(
        (oAuthScopes as string[]).filter((s) => !info.getAuthorizedScopes().includes(s)),
      );
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
