import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';

/**
 * Fills a credentials dialog (`{prefix}-login`, `-password`, `-confirm-password`, whichever it has) and submits it.
 * Values are pasted rather than typed: one input event per field keeps the tests quick on a busy machine.
 */
export async function fillCredentials(
  user: ReturnType<typeof userEvent.setup>,
  prefix: string,
  values: { login?: string; password?: string; confirmPassword?: string },
) {
  const fields: [string, string | undefined][] = [
    [`${prefix}-login`, values.login],
    [`${prefix}-password`, values.password],
    [`${prefix}-confirm-password`, values.confirmPassword ?? values.password],
  ];
  for (const [testId, value] of fields) {
    if (value === undefined) continue;
    const input = screen.getByTestId(testId);
    await user.clear(input);
    if (value) await user.paste(value);
  }
  await user.click(screen.getByTestId(`${prefix}-submit`));
}
