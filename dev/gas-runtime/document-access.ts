/**
 * Spreadsheets that are gone for a user: deleted, or no longer shared with them. Google keeps an
 * installable trigger when its document goes (the trigger belongs to the user and the script, not
 * to the file: guides/triggers/installable), so it still fires, without its document, and counts
 * toward the 20 triggers per user per script (guides/services/quotas).
 *
 * SpreadsheetApp.openById of such a file throws the message Apps Script users report from their
 * executions, e.g. the trigger-failure tables quoted in public Apps Script project READMEs and the
 * Habitica scripts that test for it: "Document <id> is missing (perhaps it was deleted, or you
 * don't have read access?)". Google documents no wording; the same message for deleted and
 * unshared files is the stricter reading (a script cannot tell which).
 */
export function missingDocumentMessage(id: string): string {
  return `Document ${id} is missing (perhaps it was deleted, or you don't have read access?)`;
}

export class DocumentAccess {
  private readonly deleted = new Set<string>();
  private readonly revoked = new Map<string, Set<string>>();

  delete(id: string): void {
    this.deleted.add(id);
  }

  revoke(id: string, user: string): void {
    const users = this.revoked.get(id) ?? new Set<string>();
    users.add(user);
    this.revoked.set(id, users);
  }

  /** Shared with `user` again (or a passing outage over). */
  grant(id: string, user: string): void {
    this.revoked.get(id)?.delete(user);
  }

  canOpen(id: string, user: string): boolean {
    return !this.deleted.has(id) && !(this.revoked.get(id)?.has(user) ?? false);
  }
}
