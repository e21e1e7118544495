import { type FormEvent, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { checkEmail, checkRequired, type EmailRequest, firstIssue } from '@kupa/proto';
import { useT } from '../../lib/i18n/i18n';
import { inputTestId } from '../../lib/ui/test-ids';

/**
 * A form that asks for a mail to an address: a new confirmation link or a password reset. Neither answer reveals
 * whether the address is known, so both check it the same way and send it with the screen's language.
 */
export function useEmailRequest(send: (body: EmailRequest) => Promise<unknown>) {
  const { lang, issueMessage } = useT();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const request = useMutation({ mutationFn: send });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = issueMessage(firstIssue(email.trim(), checkRequired, checkEmail));
    setError(problem);
    if (!problem) request.mutate({ email: email.trim(), language: lang });
  };
  const changeEmail = (value: string) => {
    setEmail(value);
    setError(undefined);
  };

  return { email, error, changeEmail, submit, isPending: request.isPending, isSuccess: request.isSuccess };
}

/** The address field and the send button of such a form; `testIdPrefix` names them `<prefix>-email` and `-submit`. */
export function EmailRequestInputs({
  request,
  testIdPrefix,
  submitLabel,
}: {
  request: ReturnType<typeof useEmailRequest>;
  testIdPrefix: string;
  submitLabel: string;
}) {
  const { t } = useT();
  return (
    <>
      <TextField
        label={t('form.email')}
        type="email"
        autoComplete="email"
        value={request.email}
        onChange={(event) => request.changeEmail(event.target.value)}
        error={Boolean(request.error)}
        helperText={request.error}
        required
        fullWidth
        slotProps={{ htmlInput: { ...inputTestId(`${testIdPrefix}-email`), dir: 'ltr' } }}
      />
      <Button type="submit" variant="contained" disabled={request.isPending} data-testid={`${testIdPrefix}-submit`}>
        {request.isPending ? t('form.sending') : submitLabel}
      </Button>
    </>
  );
}
