import { type Plan } from '@kupa/proto';
import { Chip, Stack } from '@mui/material';
import {
  BooleanField,
  EditButton,
  type Identifier,
  Labeled,
  type RaRecord,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DateTimeField } from '../shared/date-time-field';
import { EnumField } from '../shared/enum-field';
import { MoneyField } from '../shared/money';
import { PackageDeleteButton, PackageStatusButton, PackageUsageField, useCanManagePackages } from './package-actions';

function PackageShowActions() {
  const canManage = useCanManagePackages();
  if (!canManage) return null;
  return (
    <TopToolbar>
      <EditButton data-testid="package-edit" />
      <PackageStatusButton />
      <PackageDeleteButton redirectTo="list" />
    </TopToolbar>
  );
}

/** The feature list as chips, in the package's order; an empty list says so. */
function FeaturesField() {
  const record = useRecordContext<Plan & RaRecord>();
  const translate = useTranslate();
  const features = record?.features ?? [];
  if (features.length === 0) return <span>{translate('kupa.packages.no_features')}</span>;
  return (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" data-testid="package-features">
      {features.map((feature, index) => (
        <Chip key={`${index}-${feature}`} size="small" label={<bdi>{feature}</bdi>} />
      ))}
    </Stack>
  );
}

/**
 * A package's details, for both staff roles; only an admin sees the controls that change it. The id comes from the
 * route (`/packages/:id/show`) unless given.
 */
export function PackageShow({ id }: { id?: Identifier }) {
  return (
    <Show id={id} actions={<PackageShowActions />}>
      <SimpleShowLayout>
        <TextField source="name" label="resources.packages.fields.nameHe" dir="auto" />
        <TextField source="nameEn" dir="auto" emptyText="—" />
        <EnumField source="durationInMonths" enumName="planDuration" />
        <MoneyField source="price" />
        <BooleanField source="isRecurrent" />
        <BooleanField source="cardPaymentAllowed" />
        <EnumField source="status" enumName="planStatus" chip />
        <PackageUsageField source="subscriptionCount" />
        <TextField source="description" label="resources.packages.fields.descriptionHe" dir="auto" emptyText="—" />
        <TextField source="descriptionEn" dir="auto" emptyText="—" />
        <Labeled source="features">
          <FeaturesField />
        </Labeled>
        <DateTimeField source="createdAt" />
        <DateTimeField source="updatedAt" />
      </SimpleShowLayout>
    </Show>
  );
}
