/** Another editor's failure e-mails: whose they are. Shown in their sidebar and in the server's refusal alike. */
export function noticeOwnerText(email: string): string {
  return `Failure e-mails go to ${email}, who switched them on: only they can change them or turn them off.`;
}
