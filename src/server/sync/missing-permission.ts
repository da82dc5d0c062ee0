/**
 * A run that needs a Google scope the user withheld (granular consent) for the destination its
 * orders go to: it stops before writing anything, with what to do, instead of failing at its first
 * call with Google's raw "You do not have permission to call …".
 */
export class MissingPermissionError extends Error {
  readonly code = 'google_consent';
  constructor(
    readonly missingScopes: string[],
    readonly userMessage: string,
  ) {
    super(userMessage);
    this.name = 'MissingPermissionError';
  }
}
