// The one exception a handler or hook throws for an outcome the caller caused (bad input, bad
// credentials, throttled, …). Anything else thrown is a fault and becomes a generic 500.

/** The two `type` values of the contract's typed error shape. */
export type TypedErrorType = 'bad request' | 'not found error';

export interface HttpErrorOptions {
  /** Typed-shape `type`; defaults to 'not found error' for 404 and 'bad request' otherwise. */
  type?: TypedErrorType;
  /** Extra response headers (lowercase names), e.g. `retry-after` on a 429. */
  headers?: Readonly<Record<string, string>>;
}

export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly type: TypedErrorType;
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(
    readonly status: number,
    message: string,
    options: HttpErrorOptions = {},
  ) {
    super(message);
    this.type = options.type ?? (status === 404 ? 'not found error' : 'bad request');
    this.headers = options.headers;
  }
}
