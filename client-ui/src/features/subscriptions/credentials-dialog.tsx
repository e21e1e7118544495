import { type FormEvent, type ReactNode, useId, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useT } from '../../lib/i18n/i18n';
import { PasswordField } from '../../lib/ui/password-field';
import { inputTestId } from '../../lib/ui/test-ids';
import {
  checkCredentials,
  EMPTY_CREDENTIALS,
  type CredentialsField,
  type CredentialsFields,
  type CredentialsValues,
} from './credentials-form';

export interface CredentialsDialogProps {
  open: boolean;
  title: string;
  fields: CredentialsFields;
  submitLabel: string;
  pending: boolean;
  /** Prefix of the test ids: `{testId}-dialog`, `-login`, `-password`, `-confirm-password`, `-submit`, `-cancel`. */
  testId: string;
  /** The server's refusals of single fields (a 400's details, a login already taken), shown beside them. */
  serverErrors?: Partial<Record<CredentialsField, string>>;
  /** What the dialog explains above the fields (the package and its price, the trial's rules). */
  children?: ReactNode;
  /** Shown below the fields: a refusal that belongs to no field, or the balance that is short. */
  footer?: ReactNode;
  submitDisabled?: boolean;
  onSubmit: (values: CredentialsValues) => void;
  /** Called when the user edits a field, so that the server's refusal of it can be cleared. */
  onEdit?: (field: CredentialsField) => void;
  onClose: () => void;
}

/**
 * Asks for a streaming-service login, a password typed twice, or both, checked with proto's rules before anything is
 * sent. Every opening starts empty; the old password is never shown, since the API never returns it.
 */
export function CredentialsDialog(props: CredentialsDialogProps) {
  const { open, fields, pending, testId, serverErrors = {} } = props;
  const { t, issueMessage } = useT();
  const titleId = useId();
  const [values, setValues] = useState<CredentialsValues>(EMPTY_CREDENTIALS);
  const [errors, setErrors] = useState<Partial<Record<CredentialsField, string>>>({});
  // Each opening starts from empty fields (React's pattern for state that follows a prop, without an effect).
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setValues(EMPTY_CREDENTIALS);
      setErrors({});
    }
  }

  const update = (field: CredentialsField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    props.onEdit?.(field);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const issues = checkCredentials(values, fields);
    setErrors({
      login: issueMessage(issues.login),
      password: issueMessage(issues.password),
      confirmPassword: issueMessage(issues.confirmPassword),
    });
    if (Object.keys(issues).length === 0) props.onSubmit(values);
  };

  const close = () => {
    if (!pending) props.onClose();
  };
  const errorOf = (field: CredentialsField) => errors[field] ?? serverErrors[field];

  return (
    <Dialog
      open={open}
      onClose={close}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      data-testid={`${testId}-dialog`}
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{props.title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5}>
            {props.children}
            {fields !== 'password' && (
              <TextField
                label={t('credentials.login')}
                value={values.login}
                onChange={(event) => update('login', event.target.value)}
                error={Boolean(errorOf('login'))}
                helperText={errorOf('login') ?? t('credentials.loginHint')}
                required
                fullWidth
                autoComplete="off"
                slotProps={{
                  htmlInput: {
                    ...inputTestId(`${testId}-login`),
                    dir: 'ltr',
                    spellCheck: false,
                    autoCapitalize: 'none',
                  },
                }}
              />
            )}
            {fields !== 'login' && (
              <>
                <PasswordField
                  label={fields === 'password' ? t('credentials.newPassword') : t('credentials.password')}
                  value={values.password}
                  onChange={(event) => update('password', event.target.value)}
                  error={Boolean(errorOf('password'))}
                  helperText={errorOf('password') ?? t('credentials.passwordHint')}
                  required
                  fullWidth
                  autoComplete="new-password"
                  slotProps={{ htmlInput: inputTestId(`${testId}-password`) }}
                />
                <PasswordField
                  label={t('credentials.confirmPassword')}
                  value={values.confirmPassword}
                  onChange={(event) => update('confirmPassword', event.target.value)}
                  error={Boolean(errorOf('confirmPassword'))}
                  helperText={errorOf('confirmPassword')}
                  required
                  fullWidth
                  autoComplete="new-password"
                  slotProps={{ htmlInput: inputTestId(`${testId}-confirm-password`) }}
                />
              </>
            )}
            {props.footer}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={pending} data-testid={`${testId}-cancel`}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={pending || props.submitDisabled}
            data-testid={`${testId}-submit`}
          >
            {pending ? t('form.sending') : props.submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
