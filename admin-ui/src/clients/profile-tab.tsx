import {
  administrationRefusal,
  type AdministrationRefusal,
  assignableRoles,
  checkPassword,
  enumLabel,
  formatErrorMessage,
  USER_ROLES,
  USER_STATUSES,
  type UserRole,
  type UserStatus,
} from '@kupa/proto';
import { Alert, Box, Button, Card, CardContent, Chip, Grid, Stack, Typography } from '@mui/material';
import { type FormEvent, type ReactNode, useState } from 'react';
import {
  BooleanField,
  Confirm,
  FunctionField,
  SimpleShowLayout,
  TextField,
  useDataProvider,
  usePermissions,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';
import { DateTimeField } from '../shared/date-time-field';
import { type Choice, useEnumChoices } from '../shared/enum-choices';
import { EnumField } from '../shared/enum-field';
import { isolateLtr, Ltr } from '../shared/ltr';
import { Money } from '../shared/money';
import { NativeSelect } from '../shared/native-select';
import { PasswordField } from '../shared/password-field';
import { useStaffActor } from '../shared/staff-actor';
import { useCommand } from '../shared/use-command';
import { useLang } from '../shared/use-lang';
import { FixBalanceDialog } from './fix-balance-dialog';
import { AccountHistoryLink } from './payments-tab';
import { ReferrerField } from './referrer-field';
import { type ClientRecord, useClientUpdate } from './use-client-update';
import { canViewAs, ViewAsButton } from './view-as-button';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="subtitle1" component="h2" gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** What a confirmation dialog says: translation keys and the values they name. */
interface ConfirmationText {
  title: string;
  content: string;
  options: Record<string, string>;
}

interface EnumCommandFormProps<T extends string> {
  label: string;
  initial: T;
  choices: Choice[];
  testId: string;
  /** What the confirmation dialog says about changing to this value. */
  confirmation(value: T): ConfirmationText;
  onSave(value: T): Promise<unknown>;
  pending: boolean;
}

/**
 * A native select and a save button; saving asks for a confirmation that names the new value, and only then sends
 * the change. A native select keeps the control simple for keyboards, screen readers and browser tests alike; save
 * stays disabled until the value differs from the record's.
 */
function EnumCommandForm<T extends string>({
  label,
  initial,
  choices,
  testId,
  confirmation,
  onSave,
  pending,
}: EnumCommandFormProps<T>) {
  const translate = useTranslate();
  const [value, setValue] = useState<T>(initial);
  const [confirming, setConfirming] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setConfirming(true);
  };
  const text = confirmation(value);
  return (
    <Box component="form" onSubmit={submit} sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
      <NativeSelect<T>
        label={label}
        value={value}
        choices={choices}
        onChange={setValue}
        testId={`${testId}-select`}
        sx={{ minWidth: 200 }}
      />
      <Button type="submit" variant="contained" disabled={pending || value === initial} data-testid={`${testId}-save`}>
        {translate('kupa.clients.profile.save')}
      </Button>
      <Confirm
        isOpen={confirming}
        loading={pending}
        title={text.title}
        content={text.content}
        translateOptions={text.options}
        confirm="kupa.clients.profile.save"
        confirmColor="warning"
        onConfirm={async () => {
          await onSave(value);
          setConfirming(false);
        }}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}

function PasswordForm({ client }: { client: ClientRecord }) {
  const translate = useTranslate();
  const lang = useLang();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const { run, pending } = useCommand();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const issue = checkPassword(password);
    setError(issue ? formatErrorMessage(issue.error, lang, issue.params) : null);
    if (!issue) setConfirming(true);
  };

  const send = async () => {
    await run(() => dataProvider.setUserPassword(client.userUuid, password), {
      successMessage: 'kupa.clients.profile.password_set',
      refresh: false,
    });
    setConfirming(false);
    setPassword('');
  };

  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <PasswordField
        size="small"
        autoComplete="new-password"
        label={translate('kupa.clients.profile.new_password')}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={error !== null}
        helperText={error ?? undefined}
        sx={{ flex: 1 }}
        slotProps={{ htmlInput: { 'data-testid': 'password-input' } }}
      />
      <Button type="submit" variant="contained" disabled={pending || password === ''} data-testid="password-save">
        {translate('kupa.clients.profile.set_password')}
      </Button>
      <Confirm
        isOpen={confirming}
        loading={pending}
        title="kupa.clients.profile.confirm_password_title"
        content="kupa.clients.profile.confirm_password_content"
        translateOptions={{ email: isolateLtr(client.email) }}
        confirm="kupa.clients.profile.set_password"
        confirmColor="warning"
        onConfirm={send}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}

/**
 * An admin's reset of another account's two-factor sign-in, a staff member's or a client's, for a lost authenticator
 * (docs/adr/0098-client-two-factor-and-step-up.md). Only shown where it can apply (an admin looking at an account that
 * has it on); the server keeps the rule either way.
 */
function ResetTwoFactor({ userUuid }: { userUuid: string }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const { run, pending } = useCommand();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button
        variant="outlined"
        color="warning"
        onClick={() => setConfirming(true)}
        disabled={pending}
        data-testid="two-factor-reset-open"
      >
        {translate('kupa.clients.profile.reset_two_factor')}
      </Button>
      <Confirm
        isOpen={confirming}
        loading={pending}
        title="kupa.clients.profile.reset_two_factor_title"
        content="kupa.clients.profile.reset_two_factor_content"
        confirm="kupa.clients.profile.reset_two_factor"
        onConfirm={async () => {
          await run(() => dataProvider.resetTwoFactor(userUuid), {
            successMessage: 'kupa.clients.profile.two_factor_reset',
          });
          setConfirming(false);
        }}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}

/**
 * The client's balance, read from the ledger's projection, with the balance fix (admins only: docs/product.md,
 * Permissions) and a way into the account's history.
 */
function BalanceSection({ client }: { client: ClientRecord }) {
  const translate = useTranslate();
  const { permissions } = usePermissions<UserRole | null>();
  const [fixing, setFixing] = useState(false);
  return (
    <Section title={translate('kupa.clients.balance.title')}>
      <Typography variant="h5" component="p" sx={{ mb: 1 }}>
        <Money amount={client.balance} testId="client-balance" />
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {permissions === 'ADMIN' ? (
          <>
            <Button variant="contained" onClick={() => setFixing(true)} data-testid="fix-balance-open">
              {translate('kupa.fix_balance.open')}
            </Button>
            <FixBalanceDialog
              open={fixing}
              onClose={() => setFixing(false)}
              userUuid={client.userUuid}
              balance={client.balance}
            />
          </>
        ) : null}
        <AccountHistoryLink userUuid={client.userUuid} />
      </Box>
    </Section>
  );
}

/** Why the signed-in staff member may not change this account, in their language. */
const REFUSAL_MESSAGES: Record<AdministrationRefusal, string> = {
  'own.account': 'kupa.clients.profile.refused_own_account',
  'staff.account': 'kupa.clients.profile.refused_staff_account',
};

/**
 * The client's profile and the staff commands on it. The console offers only what proto's guard rails let the
 * signed-in staff member do (the server applies the same rule), and every change asks for a confirmation first.
 */
export function ProfileTab() {
  const record = useRecordContext<ClientRecord>();
  const translate = useTranslate();
  const lang = useLang();
  const actor = useStaffActor();
  const { change, pending } = useClientUpdate();
  const { permissions } = usePermissions<UserRole | null>();
  const statusChoices = useEnumChoices('userStatus', USER_STATUSES);
  const roles = record && actor ? assignableRoles(actor, record) : USER_ROLES;
  const roleChoices = useEnumChoices('userRole', roles);
  if (!record) return null;
  const refusal = actor ? administrationRefusal(actor, record) : null;
  const email = isolateLtr(record.email);

  return (
    <Grid container spacing={3} data-testid="client-profile">
      <Grid size={{ xs: 12, md: 6 }}>
        <SimpleShowLayout sx={{ p: 0 }}>
          <TextField source="fullName" />
          <FunctionField source="email" render={(client: ClientRecord) => <Ltr>{client.email}</Ltr>} />
          <FunctionField source="profileId" render={(client: ClientRecord) => <Ltr>{client.profileId}</Ltr>} />
          <EnumField source="role" enumName="userRole" />
          <EnumField source="status" enumName="userStatus" chip />
          <DateTimeField source="userCreatedAt" />
          <BooleanField source="trialUsed" />
          <BooleanField source="trialRejected" />
          <BooleanField source="twoFactorEnabled" />
          <ReferrerField source="referrer" />
        </SimpleShowLayout>
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <Stack spacing={2}>
          <BalanceSection client={record} />
          {canViewAs(permissions, record) ? (
            <Section title={translate('kupa.view_as.title')}>
              <ViewAsButton client={record} />
            </Section>
          ) : null}
          {refusal ? (
            <Alert severity="info" data-testid="profile-refusal" data-reason={refusal}>
              {translate(REFUSAL_MESSAGES[refusal])}
            </Alert>
          ) : (
            <>
              <Section title={translate('kupa.clients.profile.change_status')}>
                <EnumCommandForm<UserStatus>
                  // Re-mounting on a new value resets the form to what the server now holds.
                  key={record.status}
                  label={translate('resources.clients.fields.status')}
                  initial={record.status}
                  choices={statusChoices}
                  testId="status"
                  pending={pending}
                  confirmation={(status): ConfirmationText =>
                    status === 'BLOCKED'
                      ? {
                          title: 'kupa.clients.profile.confirm_block_title',
                          content: 'kupa.clients.profile.confirm_block_content',
                          options: { email },
                        }
                      : {
                          title: 'kupa.clients.profile.confirm_status_title',
                          content: 'kupa.clients.profile.confirm_status_content',
                          options: { email, status: enumLabel('userStatus', status, lang) },
                        }
                  }
                  onSave={(status) => change(record, { status }, 'kupa.clients.profile.status_changed')}
                />
              </Section>
              <Section title={translate('kupa.clients.profile.change_role')}>
                <EnumCommandForm<UserRole>
                  key={record.role}
                  label={translate('resources.clients.fields.role')}
                  initial={record.role}
                  choices={roleChoices}
                  testId="role"
                  pending={pending}
                  confirmation={(role) => ({
                    title: 'kupa.clients.profile.confirm_role_title',
                    content: 'kupa.clients.profile.confirm_role_content',
                    options: { email, role: enumLabel('userRole', role, lang) },
                  })}
                  onSave={(role) => change(record, { role }, 'kupa.clients.profile.role_changed')}
                />
              </Section>
            </>
          )}
          <Section title={translate('kupa.clients.profile.security')}>
            <Stack spacing={2}>
              <Chip
                sx={{ alignSelf: 'flex-start' }}
                color={record.twoFactorEnabled ? 'success' : 'default'}
                label={translate('kupa.clients.profile.two_factor_state', {
                  state: translate(
                    record.twoFactorEnabled
                      ? 'kupa.clients.profile.two_factor_on'
                      : 'kupa.clients.profile.two_factor_off',
                  ),
                })}
                data-testid="two-factor-state"
              />
              {refusal ? null : <PasswordForm client={record} />}
              {permissions === 'ADMIN' && record.twoFactorEnabled ? (
                <ResetTwoFactor userUuid={record.userUuid} />
              ) : null}
            </Stack>
          </Section>
        </Stack>
      </Grid>
    </Grid>
  );
}
