// The one error this package throws for input a client got wrong (bad number, address, signature
// format); the HTTP layer maps it to a 400 naming `field`.

export class SigningInputError extends Error {
  override readonly name = 'SigningInputError';
  /** HTTP status the caller should answer with. */
  readonly status = 400;

  constructor(
    /** The offending input, e.g. `tokenId` or `signature`. */
    readonly field: string,
    reason: string,
  ) {
    super(`invalid ${field}: ${reason}`);
  }
}
