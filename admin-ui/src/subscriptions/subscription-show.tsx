import { type UserRole } from '@kupa/proto';
import {
  BooleanField,
  FunctionField,
  type Identifier,
  Labeled,
  Link,
  Show,
  SimpleShowLayout,
  TopToolbar,
  useCreatePath,
  usePermissions,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DateTimeField } from '../shared/date-time-field';
import { EnumField } from '../shared/enum-field';
import { Ltr } from '../shared/ltr';
import { MoneyField } from '../shared/money';
import { RecordLoadError } from '../shared/record-load-error';
import { homePathFor } from '../resources';
import {
  CancelSubscriptionButton,
  ChangeLoginButton,
  ChangePasswordButton,
  ExtendSubscriptionButton,
  ResumeSubscriptionButton,
} from './subscription-actions';
import {
  PlanNameField,
  type SubscriptionRecord,
  SubscriptionPeriodField,
  SubscriptionStateField,
} from './subscription-fields';

function SubscriptionTitle() {
  const record = useRecordContext<SubscriptionRecord>();
  const translate = useTranslate();
  const name = translate('resources.subscriptions.name', { smart_count: 1 });
  return <>{record?.paymentPlan ? `${name}: ${record.paymentPlan.planName}` : name}</>;
}

/** The owner, linking to their client detail (its subscriptions tab, where staff usually come from). */
function ClientLink() {
  const record = useRecordContext<SubscriptionRecord>();
  const createPath = useCreatePath();
  if (!record) return null;
  const clientPath = createPath({ resource: 'clients', id: record.userUuid, type: 'show' });
  return (
    <Link to={`${clientPath}/subscriptions`} data-testid="subscription-user-link">
      <Ltr>{record.userEmail}</Ltr>
    </Link>
  );
}

function SubscriptionActions() {
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }} data-testid="subscription-actions">
      <ChangeLoginButton />
      <ChangePasswordButton />
      <CancelSubscriptionButton />
      <ResumeSubscriptionButton />
      <ExtendSubscriptionButton />
    </TopToolbar>
  );
}

/**
 * A subscription's details for both staff roles (`/subscriptions/{id}/show`): state, package, owner, dates and the
 * streaming service login, with the staff actions (login, password, cancel) that its type and state allow. The id
 * comes from the route unless given.
 */
export function SubscriptionShow({ id }: { id?: Identifier }) {
  const { permissions } = usePermissions<UserRole | null>();
  return (
    <Show
      id={id}
      title={<SubscriptionTitle />}
      actions={<SubscriptionActions />}
      error={
        <RecordLoadError
          notFoundCode="error.subscription.not.found"
          backLabel="kupa.subscriptions.back"
          fallbackPath={permissions === 'ADMIN' ? '/subscriptions' : homePathFor(permissions ?? null)}
        />
      }
      queryOptions={{ onError: () => undefined }}
    >
      <SimpleShowLayout>
        <Labeled source="status">
          <SubscriptionStateField />
        </Labeled>
        <Labeled source="paymentPlan.planName">
          <PlanNameField />
        </Labeled>
        <EnumField source="type" enumName="subscriptionType" />
        <Labeled source="userEmail">
          <ClientLink />
        </Labeled>
        <FunctionField source="login" render={(record: SubscriptionRecord) => <Ltr>{record.login}</Ltr>} />
        <MoneyField source="price" />
        <Labeled source="durationInMonth">
          <SubscriptionPeriodField />
        </Labeled>
        <DateTimeField source="startDate" emptyText="—" />
        <DateTimeField source="endDate" emptyText="—" />
        <DateTimeField source="nextPaymentDate" emptyText="—" />
        {/* In GRACE only (ADR 0081): until when the login is kept and renewing brings the account back. */}
        <DateTimeField source="graceEndsAt" emptyText="—" />
        <BooleanField source="isRecurrent" />
        {/* How the automatic renewal is paid, as the client chose it (ADR 0085); labels from proto. */}
        <EnumField source="renewalFunding" enumName="renewalFunding" />
        <BooleanField source="cancelAtPeriodEnd" />
        <FunctionField source="id" render={(record: SubscriptionRecord) => <Ltr>{record.id}</Ltr>} />
        <DateTimeField source="createdAt" />
        <DateTimeField source="updatedAt" />
      </SimpleShowLayout>
    </Show>
  );
}
