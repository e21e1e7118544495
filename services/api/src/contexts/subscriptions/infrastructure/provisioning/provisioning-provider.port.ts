import type { ErrorCode } from '@kupa/proto';

/** An account at the streaming service as its provisioning API describes it. */
export interface StreamingAccount {
  login: string;
  /** ISO-8601 instant after which the service refuses the account. */
  expiresAt: string;
  status: 'ACTIVE' | 'DISABLED';
}

/**
 * What went wrong talking to the streaming service, in the three kinds the job runner acts on. Messages name the
 * operation and the answer's status, never a password or the token.
 */
export abstract class ProvisioningError extends Error {
  abstract readonly kind: 'TRANSIENT' | 'PERMANENT' | 'LOGIN_TAKEN';
}

/** Worth trying again later: no answer in time, no connection, a 5xx, 429 (or 408, or a refused token). */
export class TransientProvisioningError extends ProvisioningError {
  readonly kind = 'TRANSIENT';
  constructor(message: string) {
    super(message);
    this.name = 'TransientProvisioningError';
  }
}

/** Trying again cannot help: the service refused the request itself (a 4xx) or answered something unreadable. */
export class PermanentProvisioningError extends ProvisioningError {
  readonly kind = 'PERMANENT';
  constructor(message: string) {
    super(message);
    this.name = 'PermanentProvisioningError';
  }
}

/** The login belongs to another account at the service (409); the client must choose another. */
export class LoginTakenError extends ProvisioningError {
  readonly kind = 'LOGIN_TAKEN';
  /** What a user is shown. */
  readonly code: ErrorCode = 'error.login.already.exists';
  constructor(readonly login: string) {
    super(`The login ${login} is taken at the streaming service`);
    this.name = 'LoginTakenError';
  }
}

/**
 * The streaming service's accounts, one per subscription login (docs/provisioning-api.md). Every call either
 * resolves, or rejects with one of the `ProvisioningError` kinds above; any other rejection is a bug. Calls are safe
 * to repeat with the same arguments: creating the same account twice, setting the same expiry twice, renaming to a
 * login the account already has, disabling twice all succeed.
 */
export abstract class ProvisioningProvider {
  /** Creates the account, ACTIVE until `expiresAt`. `LoginTakenError` when another account holds the login. */
  abstract createAccount(request: { login: string; password: string; expiresAt: Date }): Promise<StreamingAccount>;
  /** Sets the account's absolute expiry (and makes it ACTIVE again); repeating it changes nothing. */
  abstract extendAccount(request: { login: string; expiresAt: Date }): Promise<StreamingAccount>;
  /** Renames the account. `LoginTakenError` when another account holds `newLogin`. */
  abstract changeLogin(request: { login: string; newLogin: string }): Promise<StreamingAccount>;
  abstract changePassword(request: { login: string; password: string }): Promise<void>;
  /** Disables the account; its login stays with it until a new account is created under it. */
  abstract disableAccount(request: { login: string }): Promise<StreamingAccount>;
  /** Whether a purchase may take this login: no account holds it, or only a disabled one. A pre-check, not a claim. */
  abstract isLoginAvailable(login: string): Promise<boolean>;
}
