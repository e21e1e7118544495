import { ApiError } from '../../../platform/http';
import { uniqueViolationConstraint } from '../../../platform/database/unique-violation';
import { PLAN_NAME_UNIQUE_CONSTRAINT } from './catalog.migrations';

/**
 * Runs a command that sets a package's name. The decider refuses a name it was told is taken; two commands that
 * give different packages one name at the same moment both pass that check, and the unique index refuses the later
 * append, which answers the same way.
 */
export async function withUniquePlanName<Result>(command: () => Promise<Result>): Promise<Result> {
  try {
    return await command();
  } catch (error) {
    if (uniqueViolationConstraint(error) === PLAN_NAME_UNIQUE_CONSTRAINT)
      throw new ApiError('error.payment.plan.already.exists', { field: 'name' });
    throw error;
  }
}
