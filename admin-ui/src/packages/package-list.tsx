import { LIMITS, type Plan, PLAN_STATUSES } from '@kupa/proto';
import { Stack } from '@mui/material';
import {
  BooleanField,
  CreateButton,
  DataTable,
  EditButton,
  List,
  type RaRecord,
  SelectArrayInput,
  SimpleList,
  TextInput,
  useTranslate,
} from 'react-admin';
import { CardLine } from '../shared/card-line';
import { DateTimeField } from '../shared/date-time-field';
import { useEnumChoices } from '../shared/enum-choices';
import { EmptyState } from '../shared/empty-state';
import { EnumField } from '../shared/enum-field';
import { ListPagination } from '../shared/list-pagination';
import { MoneyField } from '../shared/money';
import { SHOW_FILTER_ERROR, usePriceBoundValidator } from '../shared/price-bound-validator';
import { type FilterElement, ResponsiveListActions, useIsPhone, useResponsiveFilters } from '../shared/responsive';
import { bodyWithRowTestId } from '../shared/test-id-rows';
import { PackageNameField } from './package-name-field';
import { PackageDeleteButton, PackageStatusButton, PackageUsageField, useCanManagePackages } from './package-actions';

const PackageRows = bodyWithRowTestId('packages-row');

function usePackageFilters() {
  const statusChoices = useEnumChoices('planStatus', PLAN_STATUSES);
  const priceBound = usePriceBoundValidator();
  return [
    <SelectArrayInput key="statuses" source="statuses" choices={statusChoices} translateChoice={false} alwaysOn />,
    ...[
      ['priceFrom', 'packages-price-from'],
      ['priceTo', 'packages-price-to'],
    ].map(([source, testId]) => (
      <TextInput
        key={source}
        source={source}
        alwaysOn
        validate={priceBound}
        sx={SHOW_FILTER_ERROR}
        slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr', 'data-testid': testId } }}
      />
    )),
  ];
}

function PackageListActions({ drawer }: { drawer: FilterElement[] }) {
  const canManage = useCanManagePackages();
  return (
    <ResponsiveListActions drawer={drawer}>
      {canManage ? <CreateButton data-testid="package-create" /> : null}
    </ResponsiveListActions>
  );
}

/**
 * No package yet: says so and, for an admin, offers the same create button the list's toolbar has (react-admin's own
 * empty page has a button of its own, without the test id and with a generic invitation).
 */
function PackagesEmpty() {
  const translate = useTranslate();
  const canManage = useCanManagePackages();
  return (
    <Stack sx={{ alignItems: 'center', width: '100%' }}>
      <EmptyState testId="packages-empty" title={translate('kupa.packages.empty')} />
      {canManage ? <CreateButton variant="contained" data-testid="package-create" /> : null}
    </Stack>
  );
}

/** A package on a phone: name and status first, then price and duration; its actions are on its detail page. */
function PackageCards() {
  return (
    <SimpleList<Plan & RaRecord>
      linkType="show"
      primaryText={
        <CardLine testId="packages-card" end={<EnumField source="status" enumName="planStatus" chip />}>
          <PackageNameField />
        </CardLine>
      }
      secondaryText={
        <>
          <MoneyField source="price" /> · <EnumField source="durationInMonths" enumName="planDuration" />
          <br />
          <PackageUsageField />
        </>
      }
    />
  );
}

/**
 * The packages list (docs/product.md, Screens): both staff roles filter it by status and price and open a package's
 * details; an admin also creates, edits, activates or deactivates and deletes packages from it.
 */
export function PackageList() {
  const { inline, drawer } = useResponsiveFilters(usePackageFilters());
  const canManage = useCanManagePackages();
  const phone = useIsPhone();
  return (
    <List
      filters={inline}
      actions={<PackageListActions drawer={drawer} />}
      empty={<PackagesEmpty />}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={LIMITS.pageSizeDefault}
      pagination={<ListPagination />}
      exporter={false}
    >
      {phone ? (
        <PackageCards />
      ) : (
        <DataTable rowClick="show" bulkActionButtons={false} body={PackageRows}>
          <DataTable.Col source="name">
            <PackageNameField />
          </DataTable.Col>
          <DataTable.Col source="durationInMonths">
            <EnumField source="durationInMonths" enumName="planDuration" />
          </DataTable.Col>
          <DataTable.Col source="price">
            <MoneyField source="price" />
          </DataTable.Col>
          <DataTable.Col source="isRecurrent" disableSort>
            <BooleanField source="isRecurrent" />
          </DataTable.Col>
          <DataTable.Col source="status">
            <EnumField source="status" enumName="planStatus" chip />
          </DataTable.Col>
          <DataTable.Col source="subscriptionCount" disableSort>
            <PackageUsageField />
          </DataTable.Col>
          <DataTable.Col source="createdAt">
            <DateTimeField source="createdAt" />
          </DataTable.Col>
          {canManage ? (
            <DataTable.Col source="actions" disableSort label="kupa.packages.actions">
              <Stack direction="row" spacing={1} data-testid="package-row-actions">
                <EditButton data-testid="package-edit" />
                <PackageStatusButton />
                <PackageDeleteButton />
              </Stack>
            </DataTable.Col>
          ) : null}
        </DataTable>
      )}
    </List>
  );
}
