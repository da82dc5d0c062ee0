/**
 * Where the add-on is enabled. Google's Editor add-on authorization page
 * (developers.google.com/workspace/add-ons/concepts/editor-auth-lifecycle, "Editor add-on states"):
 * an add-on is installed for a user, and "enabled in a document … when anyone uses it there"; the
 * Sheets add-on page (developers.google.com/workspace/add-ons/editors/sheets, custom functions) and
 * the custom functions guide (developers.google.com/apps-script/guides/sheets/functions): an
 * add-on's custom functions work only in documents where it is installed or enabled.
 *
 * Stricter readings where Google is silent:
 * - the document must be enabled: an install for the user does not make the functions known in
 *   every spreadsheet they open;
 * - a copy (File → Make a copy) and a new spreadsheet start not enabled: nobody has used the
 *   add-on in them yet;
 * - "using it" is a FULL execution in the document (a menu item, the sidebar and what it calls);
 *   onOpen (NONE/LIMITED), custom functions and the OAuth callback (no document) enable nothing;
 * - a formula cell in a document where it is not enabled is not run: Sheets does not know the
 *   name and shows `#NAME?`, "Unknown function: 'NAME'." (what Sheets shows for any unknown
 *   function), and the cell keeps that answer until it recalculates after the add-on is enabled.
 *
 * onOpen follows the same state (the page's table): AuthMode.NONE where the user has it installed
 * but the document is not enabled, LIMITED where it is.
 */
import type { AuthMode } from './types.js';

/** The error name a refused formula cell carries: the code Sheets shows in the cell. */
export const UNKNOWN_FUNCTION_CODE = '#NAME?';

export function unknownFunctionMessage(functionName: string): string {
  return `Unknown function: '${functionName}'.`;
}

export class AddOnEnablement {
  private readonly enabled = new Set<string>();

  isEnabled(documentId: string): boolean {
    return this.enabled.has(documentId);
  }

  enable(documentId: string): void {
    this.enabled.add(documentId);
  }

  /** The auth mode Sheets runs the add-on's onOpen in for a user who has it installed. */
  onOpenAuthMode(documentId: string): Extract<AuthMode, 'NONE' | 'LIMITED'> {
    return this.isEnabled(documentId) ? 'LIMITED' : 'NONE';
  }

  /** A run that enables the add-on where it runs: a FULL execution with its document. */
  static enables(authMode: AuthMode, withDocument: boolean): boolean {
    return authMode === 'FULL' && withDocument;
  }
}
