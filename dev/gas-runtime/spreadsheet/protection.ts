/**
 * SpreadsheetApp's Protection of a whole sheet (Sheet.protect(), Google's
 * https://developers.google.com/apps-script/reference/spreadsheet/protection). The state lives on
 * the SheetModel and is saved with the workbook. Editors are kept as e-mail addresses; the runtime
 * does not know the document's sharing, so a new protection lists no editors (Google lists the
 * owner and the script's user, who can never be removed) and writes by the script are not refused
 * (the script's user is always an editor of what it protects).
 */
import { User } from '../services/session';
import { refuseWrite, type SpreadsheetScope } from './scope';
import type { SheetModel } from './sheet-model';

export interface ProtectionState {
  description: string;
  warningOnly: boolean;
  domainEdit: boolean;
  editors: string[];
}

export function newProtectionState(): ProtectionState {
  return { description: '', warningOnly: false, domainEdit: true, editors: [] };
}

function emailOf(user: unknown): string {
  if (typeof user === 'string') return user;
  if (user && typeof (user as { getEmail?: unknown }).getEmail === 'function') return String((user as User).getEmail());
  throw new Error("The parameters (Object) don't match the method signature for SpreadsheetApp.Protection.addEditor.");
}

export class Protection {
  constructor(
    private readonly scope: SpreadsheetScope,
    private readonly model: SheetModel,
  ) {}

  private state(): ProtectionState {
    if (!this.model.protection) throw new Error('This protection no longer exists.');
    return this.model.protection;
  }

  private change(method: string, fn: (state: ProtectionState) => void): Protection {
    refuseWrite(this.scope, `Protection.${method}`);
    fn(this.state());
    return this;
  }

  getProtectionType(): string {
    return 'SHEET';
  }

  getDescription(): string {
    return this.state().description;
  }

  setDescription(description: string): Protection {
    return this.change('setDescription', (s) => (s.description = String(description)));
  }

  isWarningOnly(): boolean {
    return this.state().warningOnly;
  }

  setWarningOnly(warningOnly: boolean): Protection {
    return this.change('setWarningOnly', (s) => (s.warningOnly = warningOnly === true));
  }

  canDomainEdit(): boolean {
    return this.state().domainEdit;
  }

  setDomainEdit(editable: boolean): Protection {
    return this.change('setDomainEdit', (s) => (s.domainEdit = editable === true));
  }

  canEdit(): boolean {
    return true;
  }

  getEditors(): User[] {
    return this.state().editors.map((e) => new User(e));
  }

  addEditor(user: unknown): Protection {
    return this.change('addEditor', (s) => {
      const email = emailOf(user);
      if (email && !s.editors.includes(email)) s.editors.push(email);
    });
  }

  removeEditors(users: unknown[]): Protection {
    return this.change('removeEditors', (s) => {
      const gone = new Set((Array.isArray(users) ? users : []).map(emailOf));
      s.editors = s.editors.filter((e) => !gone.has(e));
    });
  }

  remove(): void {
    refuseWrite(this.scope, 'Protection.remove');
    this.model.protection = null;
  }
}
