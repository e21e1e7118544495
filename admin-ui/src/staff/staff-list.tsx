import { STAFF_ROLES, type User } from '@kupa/proto';
import { Typography } from '@mui/material';
import {
  DataTable,
  type Identifier,
  SelectArrayInput,
  useCreatePath,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { PeopleList, PERSON_COLUMNS, PersonCards, usePersonFilters } from '../clients/people-list';
import { EnumField } from '../shared/enum-field';
import { bodyWithRowTestId } from '../shared/test-id-rows';

const StaffRows = bodyWithRowTestId('staff-row');

function useStaffFilters() {
  const translate = useTranslate();
  const { keyWord, statuses, roles } = usePersonFilters(STAFF_ROLES, 'staff-search');
  const twoFactorChoices = [
    { id: 'true', name: translate('kupa.two_factor.status_on') },
    { id: 'false', name: translate('kupa.two_factor.status_off') },
  ];
  return [
    keyWord,
    roles,
    statuses,
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

/**
 * The staff list (admins only, ADR 0078): every staff account, found by name or e-mail, role, status and two-factor
 * state. A row opens the account's detail, whose profile tab changes the role and status, sets a password and resets
 * two-factor sign-in, with the staff guard rails (docs/adr/0003).
 */
export function StaffList() {
  const createPath = useCreatePath();
  const translate = useTranslate();
  const detailPath = (id: Identifier) => createPath({ resource: 'clients', id, type: 'show' });
  return (
    <PeopleList
      filters={useStaffFilters()}
      before={
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 1 }} data-testid="staff-hint">
          {translate('kupa.clients.staff_hint')}
        </Typography>
      }
      // A staff member on a phone: name and status first, then the e-mail, role and two-factor state.
      cards={
        <PersonCards
          testId="staff-card"
          linkType={(record) => detailPath(record.id)}
          details={() => (
            <>
              <EnumField source="role" enumName="userRole" />
              {' · '}
              {translate('resources.staff.fields.twoFactorEnabled')}: <TwoFactorState />
            </>
          )}
        />
      }
      table={
        <DataTable rowClick={(id) => detailPath(id)} bulkActionButtons={false} body={StaffRows}>
          {PERSON_COLUMNS.nameAndEmail}
          {PERSON_COLUMNS.role}
          {PERSON_COLUMNS.status}
          <DataTable.Col source="twoFactorEnabled">
            <TwoFactorState />
          </DataTable.Col>
          {PERSON_COLUMNS.registered}
        </DataTable>
      }
    />
  );
}
