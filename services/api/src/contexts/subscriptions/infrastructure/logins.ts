import { ApiError } from '../../../platform/http';
import { uniqueViolationConstraint } from '../../../platform/database/unique-violation';
import { SUBSCRIPTION_LOGIN_HELD_CONSTRAINT } from './subscriptions.migrations';

/**
 * Runs a command that gives a subscription a login. A login is unique among subscriptions that still hold an account
 * at the streaming service, whatever its case; the projection's insert or update hits the partial unique index
 * `subscriptions_login_held` and aborts the whole append, which answers 409 `error.login.already.exists`.
 */
export async function withUniqueLogin<Result>(command: () => Promise<Result>): Promise<Result> {
  try {
    return await command();
  } catch (error) {
    if (uniqueViolationConstraint(error) === SUBSCRIPTION_LOGIN_HELD_CONSTRAINT)
      throw new ApiError('error.login.already.exists', { field: 'login' });
    throw error;
  }
}
