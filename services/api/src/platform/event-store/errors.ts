/** Raised when a stream is not at the version a command decided on. The command may reload and retry. */
export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number,
    readonly actualVersion: number,
  ) {
    super(`Stream ${streamId} is at version ${actualVersion}, expected ${expectedVersion}`);
    this.name = 'WrongExpectedVersionError';
  }
}

/** Raised by verification when a stored event no longer matches its hash chain. */
export class HashChainBrokenError extends Error {
  constructor(
    readonly streamId: string,
    readonly streamVersion: number,
  ) {
    super(`Hash chain broken in ${streamId} at version ${streamVersion}`);
    this.name = 'HashChainBrokenError';
  }
}
