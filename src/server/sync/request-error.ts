/** A sidebar request that cannot be taken as sent (a date, a column list): nothing was changed, and the message says what to fix. */
export class FixRequestError extends Error {
  readonly action = 'fix_request';
  constructor(
    readonly code: string,
    readonly userMessage: string,
  ) {
    super(userMessage);
    this.name = 'FixRequestError';
  }
}
