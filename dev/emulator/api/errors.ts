/** An API failure with the spec's status and error.code (spec 7); the router turns it into the error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function invalidParameter(name: string, message: string): ApiError {
  return new ApiError(400, 'invalid_parameter', `${name}: ${message}`);
}

export function notFound(what: string): ApiError {
  return new ApiError(404, 'not_found', `${what} does not exist in this store`);
}
