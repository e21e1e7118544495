import {
  checkEmail,
  checkPassword,
  checkPersonName,
  checkRequired,
  type CreateUserRequest,
  firstIssue,
  formatErrorMessage,
  type Language,
  LANGUAGES,
  fieldMessagesOfApiError,
  normalizeEmail,
  type RuleIssue,
  STAFF_ROLES,
  type StaffRole,
} from '@kupa/proto';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { type FormEvent, useMemo, useState } from 'react';
import { useDataProvider, useNavigate, useNotify, usePermissions, useTranslate } from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';
import { ApiError } from '../providers/http-client';
import { useAdminPath } from '../shared/admin-path';
import { useEnumChoices } from '../shared/enum-choices';
import { NativeSelect } from '../shared/native-select';
import { PasswordField } from '../shared/password-field';
import { useLang } from '../shared/use-lang';

type Field = 'email' | 'firstName' | 'lastName' | 'password';
type FieldErrors = Partial<Record<Field, string>>;

const EMPTY = { email: '', firstName: '', lastName: '', password: '' };

/**
 * The admin's way to open a staff account (`POST /users`, admins only): a manager or an admin, active at once, with
 * the password the admin chose and the language of its mails. The fields are checked with proto's rules before
 * sending; the server's field errors show beside their fields. Once created, the console opens the new account.
 */
export function CreateStaffButton() {
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (permissions !== 'ADMIN') return null;
  return (
    <>
      <Button startIcon={<PersonAddIcon />} onClick={() => setOpen(true)} data-testid="create-staff-open">
        {translate('kupa.staff.create')}
      </Button>
      {open ? <CreateStaffDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function CreateStaffDialog({ onClose }: { onClose(): void }) {
  const translate = useTranslate();
  const lang = useLang();
  const notify = useNotify();
  const navigate = useNavigate();
  const adminPath = useAdminPath();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const roleChoices = useEnumChoices('userRole', STAFF_ROLES);
  const languageChoices = useMemo(
    () => LANGUAGES.map((id) => ({ id, name: translate(`kupa.staff.languages.${id}`) })),
    [translate],
  );
  const [values, setValues] = useState(EMPTY);
  const [role, setRole] = useState<StaffRole>('MANAGER');
  const [language, setLanguage] = useState<Language>(lang);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const message = (issue: RuleIssue | null) =>
    issue ? formatErrorMessage(issue.error, lang, issue.params) : undefined;
  const set = (field: Field) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: FieldErrors = {
      email: message(firstIssue(values.email.trim(), checkRequired, checkEmail)),
      firstName: message(firstIssue(values.firstName, checkRequired, checkPersonName)),
      lastName: message(firstIssue(values.lastName, checkRequired, checkPersonName)),
      password: message(firstIssue(values.password, checkRequired, checkPassword)),
    };
    setErrors(found);
    setServerError(null);
    if (Object.values(found).some(Boolean)) return;

    const request: CreateUserRequest = {
      email: normalizeEmail(values.email),
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      role,
      password: values.password,
      language,
    };
    setPending(true);
    try {
      const user = await dataProvider.createStaffAccount(request);
      notify('kupa.staff.created', { type: 'success' });
      onClose();
      navigate(adminPath(`/clients/${encodeURIComponent(user.userUuid)}`));
    } catch (error) {
      const fields = fieldErrorsOf(error, lang);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setServerError(error instanceof Error ? error.message : String(error));
    } finally {
      setPending(false);
    }
  };

  const field = (name: Field, label: string, extra: object = {}) => ({
    label: translate(label),
    value: values[name],
    onChange: set(name),
    error: errors[name] !== undefined,
    helperText: errors[name],
    fullWidth: true,
    size: 'small' as const,
    ...extra,
  });

  return (
    <Dialog
      open
      onClose={pending ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="create-staff-title"
      data-testid="create-staff-dialog"
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id="create-staff-title">{translate('kupa.staff.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              {...field('email', 'resources.clients.fields.email', {
                type: 'email',
                autoComplete: 'off',
                slotProps: { htmlInput: { dir: 'ltr', 'data-testid': 'create-staff-email' } },
              })}
            />
            <TextField
              {...field('firstName', 'kupa.staff.first_name', {
                slotProps: { htmlInput: { dir: 'auto', 'data-testid': 'create-staff-first-name' } },
              })}
            />
            <TextField
              {...field('lastName', 'kupa.staff.last_name', {
                slotProps: { htmlInput: { dir: 'auto', 'data-testid': 'create-staff-last-name' } },
              })}
            />
            <NativeSelect<StaffRole>
              label={translate('resources.clients.fields.role')}
              value={role}
              choices={roleChoices}
              onChange={setRole}
              testId="create-staff-role"
            />
            <PasswordField
              {...field('password', 'kupa.clients.profile.new_password', {
                autoComplete: 'new-password',
                slotProps: { htmlInput: { 'data-testid': 'create-staff-password' } },
              })}
            />
            <NativeSelect<Language>
              label={translate('kupa.staff.language')}
              value={language}
              choices={languageChoices}
              onChange={setLanguage}
              testId="create-staff-language"
            />
            {serverError ? (
              <Alert severity="error" data-testid="create-staff-error">
                {serverError}
              </Alert>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={pending} data-testid="create-staff-cancel">
            {translate('ra.action.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={pending} data-testid="create-staff-submit">
            {translate('kupa.staff.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** The server's per-field refusals of a 400, in the page language, for the fields this form has. */
function fieldErrorsOf(error: unknown, lang: Language): FieldErrors {
  if (!(error instanceof ApiError)) return {};
  const messages = fieldMessagesOfApiError(error.body, lang);
  return Object.fromEntries(Object.entries(messages).filter(([field]) => Object.hasOwn(EMPTY, field)));
}
