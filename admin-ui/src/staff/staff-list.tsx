import { LIMITS, STAFF_ROLES, type User, USER_STATUSES } from '@kupa/proto';
import { Typography } from '@mui/material';
import {
  DataTable,
  type Identifier,
  List,
  type RaRecord,
  SearchInput,
  SelectArrayInput,
  SimpleList,
  TextField,
  useCreatePath,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { CreateStaffButton } from '../clients/create-staff-dialog';
import { CardLine } from '../shared/card-line';
import { DateTimeField } from '../shared/date-time-field';
import { useEnumChoices } from '../shared/enum-choices';
import { EnumField } from '../shared/enum-field';
import { ListPagination } from '../shared/list-pagination';
import { Ltr } from '../shared/ltr';
import { ResponsiveListActions, useIsPhone, useResponsiveFilters } from '../shared/responsive';
import { bodyWithRowTestId } from '../shared/test-id-rows';

const StaffRows = bodyWithRowTestId('staff-row');

function useStaffFilters() {
  const translate = useTranslate();
  const statusChoices = useEnumChoices('userStatus', USER_STATUSES);
  const roleChoices = useEnumChoices('userRole', STAFF_ROLES);
  const twoFactorChoices = [
    { id: 'true', name: translate('kupa.two_factor.status_on') },
    { id: 'false', name: translate('kupa.two_factor.status_off') },
  ];
  return [
    <SearchInput
      key="keyWord"
      source="keyWord"
      alwaysOn
      slotProps={{ htmlInput: { maxLength: LIMITS.keywordMaxLength, 'data-testid': 'staff-search' } }}
    />,
    <SelectArrayInput key="roles" source="roles" choices={roleChoices} translateChoice={false} />,
    <SelectArrayInput key="statuses" source="statuses" choices={statusChoices} translateChoice={false} />,
    <SelectArrayInput
      key="twoFactorEnabled"
      source="twoFactorEnabled"
      choices={twoFactorChoices}
      translateChoice={false}
    />,
  ];
}

/** "On" or "Off": whether sign-in asks this staff member for a one-time code. */
function TwoFactorState(_props: { source?: string }) {
  const record = useRecordContext<User>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <span data-testid="staff-two-factor" data-enabled={record.twoFactorEnabled}>
      {translate(record.twoFactorEnabled ? 'kupa.two_factor.status_on' : 'kupa.two_factor.status_off')}
    </span>
  );
}

/** A staff member on a phone: name and status first, then the e-mail, role and two-factor state. */
function StaffCards({ detailPath }: { detailPath: (id: Identifier) => string }) {
  const translate = useTranslate();
  return (
    <SimpleList<User & RaRecord>
      linkType={(record) => detailPath(record.id)}
      primaryText={(record) => (
        <CardLine testId="staff-card" end={<EnumField source="status" enumName="userStatus" chip />}>
          {record.fullName || <Ltr>{record.email}</Ltr>}
        </CardLine>
      )}
      secondaryText={(record) => (
        <>
          <Ltr>{record.email}</Ltr>
          <br />
          <EnumField source="role" enumName="userRole" />
          {' · '}
          {translate('resources.staff.fields.twoFactorEnabled')}: <TwoFactorState />
        </>
      )}
    />
  );
}

/**
 * The staff list (admins only, ADR 0078): every staff account, found by name or e-mail, role, status and two-factor
 * state. A row opens the account's detail, whose profile tab changes the role and status, sets a password and resets
 * two-factor sign-in, with the staff guard rails (docs/adr/0003).
 */
export function StaffList() {
  const { inline, drawer } = useResponsiveFilters(useStaffFilters());
  const phone = useIsPhone();
  const createPath = useCreatePath();
  const translate = useTranslate();
  const detailPath = (id: Identifier) => createPath({ resource: 'clients', id, type: 'show' });
  return (
    <List
      filters={inline}
      actions={
        <ResponsiveListActions drawer={drawer}>
          <CreateStaffButton />
        </ResponsiveListActions>
      }
      sort={{ field: 'userCreatedAt', order: 'DESC' }}
      perPage={LIMITS.pageSizeDefault}
      pagination={<ListPagination />}
      exporter={false}
    >
      <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 1 }} data-testid="staff-hint">
        {translate('kupa.clients.staff_hint')}
      </Typography>
      {phone ? (
        <StaffCards detailPath={detailPath} />
      ) : (
        <DataTable rowClick={(id) => detailPath(id)} bulkActionButtons={false} body={StaffRows}>
          <DataTable.Col source="fullName" />
          <DataTable.Col source="email">
            <Ltr>
              <TextField source="email" />
            </Ltr>
          </DataTable.Col>
          <DataTable.Col source="role">
            <EnumField source="role" enumName="userRole" />
          </DataTable.Col>
          <DataTable.Col source="status">
            <EnumField source="status" enumName="userStatus" chip />
          </DataTable.Col>
          <DataTable.Col source="twoFactorEnabled">
            <TwoFactorState />
          </DataTable.Col>
          <DataTable.Col source="userCreatedAt">
            <DateTimeField source="userCreatedAt" />
          </DataTable.Col>
        </DataTable>
      )}
    </List>
  );
}
