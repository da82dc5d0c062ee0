/** SpreadsheetApp.getUi(): menus, sidebars, dialogs and alerts, recorded in the runtime's UiLog. */
import type { HtmlOutputLike, MenuItemRecord, MenuRecord } from '../types';
import { permissionDenied } from '../types';
import type { SpreadsheetScope } from './scope';

export const BUTTON_SET = {
  OK: 'OK',
  OK_CANCEL: 'OK_CANCEL',
  YES_NO: 'YES_NO',
  YES_NO_CANCEL: 'YES_NO_CANCEL',
} as const;
export const BUTTON = { OK: 'OK', CANCEL: 'CANCEL', YES: 'YES', NO: 'NO', CLOSE: 'CLOSE' } as const;

function isHtmlOutput(value: unknown): value is HtmlOutputLike {
  return typeof value === 'object' && value !== null && typeof (value as HtmlOutputLike).getContent === 'function';
}

export class Menu {
  private readonly items: MenuItemRecord[] = [];

  constructor(
    private readonly scope: SpreadsheetScope,
    private readonly title: string,
    private readonly addon: boolean,
  ) {}

  _record(): MenuRecord {
    return { title: this.title, addon: this.addon, items: this.items.slice() };
  }

  addItem(caption: string, functionName: string): Menu {
    if (typeof caption !== 'string' || typeof functionName !== 'string') {
      throw new Error("The parameters don't match the method signature for Ui.Menu.addItem.");
    }
    this.items.push({ kind: 'item', caption, functionName });
    return this;
  }

  addSeparator(): Menu {
    this.items.push({ kind: 'separator' });
    return this;
  }

  addSubMenu(menu: Menu): Menu {
    if (!(menu instanceof Menu))
      throw new Error("The parameters don't match the method signature for Ui.Menu.addSubMenu.");
    this.items.push({ kind: 'submenu', menu: menu._record() });
    return this;
  }

  addToUi(): void {
    this.scope.ui.addMenu(this._record());
  }
}

export class Ui {
  readonly ButtonSet = BUTTON_SET;
  readonly Button = BUTTON;

  constructor(private readonly scope: SpreadsheetScope) {}

  /** Sidebars, dialogs and alerts need FULL: onOpen (NONE/LIMITED) may only build menus. */
  private _requireFull(method: string): void {
    if (this.scope.ctx.authMode !== 'FULL') throw permissionDenied(`Ui.${method}`);
  }

  createAddonMenu(): Menu {
    return new Menu(this.scope, 'Add-on', true);
  }

  createMenu(caption: string): Menu {
    return new Menu(this.scope, String(caption), false);
  }

  showSidebar(userInterface: HtmlOutputLike): void {
    this._requireFull('showSidebar');
    if (!isHtmlOutput(userInterface))
      throw new Error("The parameters don't match the method signature for Ui.showSidebar.");
    this.scope.ui.showSidebar({
      title: userInterface.getTitle(),
      html: userInterface.getContent(),
      executionId: this.scope.ctx.executionId,
    });
  }

  private _dialog(method: string, userInterface: HtmlOutputLike, title: string, modal: boolean): void {
    this._requireFull(method);
    if (!isHtmlOutput(userInterface))
      throw new Error(`The parameters don't match the method signature for Ui.${method}.`);
    this.scope.ui.showDialog({
      title: String(title),
      html: userInterface.getContent(),
      modal,
      width: userInterface.getWidth(),
      height: userInterface.getHeight(),
      executionId: this.scope.ctx.executionId,
    });
  }

  showModalDialog(userInterface: HtmlOutputLike, title: string): void {
    this._dialog('showModalDialog', userInterface, title, true);
  }

  showModelessDialog(userInterface: HtmlOutputLike, title: string): void {
    this._dialog('showModelessDialog', userInterface, title, false);
  }

  /** alert(prompt), alert(prompt, buttons), alert(title, prompt, buttons); returns the Button pressed. */
  alert(first: string, second?: string, third?: string): string {
    this._requireFull('alert');
    const buttonSets: string[] = Object.values(BUTTON_SET);
    let title = '';
    let prompt = String(first);
    let buttons = 'OK';
    if (third !== undefined) [title, prompt, buttons] = [String(first), String(second), String(third)];
    else if (second !== undefined && buttonSets.includes(second)) buttons = second;
    else if (second !== undefined) [title, prompt] = [String(first), String(second)];
    if (!buttonSets.includes(buttons)) throw new Error('Invalid argument: buttons');
    return this.scope.ui.alert({ title, prompt, buttons });
  }
}
