import { LIMITS, type User, type UserRole, USER_STATUSES } from '@kupa/proto';
import type { ReactNode } from 'react';
import {
  DataTable,
  List,
  type RaRecord,
  SearchInput,
  SelectArrayInput,
  SimpleList,
  type SimpleListProps,
  TextField,
} from 'react-admin';
import { CardLine } from '../shared/card-line';
import { DateTimeField } from '../shared/date-time-field';
import { useEnumChoices } from '../shared/enum-choices';
import { EnumField } from '../shared/enum-field';
import { ListPagination } from '../shared/list-pagination';
import { Ltr } from '../shared/ltr';
import { type FilterElement, ResponsiveListActions, useIsPhone, useResponsiveFilters } from '../shared/responsive';
import { CreateStaffButton } from './create-staff-dialog';

/**
 * What the client list and the staff list (ADR 0078) share: both list `User`s from the users searches, which share
 * their filter fields, so the keyword search, the role and status filters, the page frame (newest first, the create
 * staff button, no export), the phone card's first lines and the name, e-mail, role, status and registration columns
 * are written once here. Each list keeps what is its own (balances and referrers, two-factor state, the hint).
 */

/** The filters both lists offer, each list ordering them as its screen wants. */
export function usePersonFilters(roles: readonly UserRole[], searchTestId: string) {
  const statusChoices = useEnumChoices('userStatus', USER_STATUSES);
  const roleChoices = useEnumChoices('userRole', roles);
  return {
    keyWord: (
      <SearchInput
        key="keyWord"
        source="keyWord"
        alwaysOn
        slotProps={{ htmlInput: { maxLength: LIMITS.keywordMaxLength, 'data-testid': searchTestId } }}
      />
    ),
    statuses: <SelectArrayInput key="statuses" source="statuses" choices={statusChoices} translateChoice={false} />,
    roles: <SelectArrayInput key="roles" source="roles" choices={roleChoices} translateChoice={false} />,
  };
}

/** A person on a phone: name (or e-mail) and status first, the e-mail below, then what the list adds. */
export function PersonCards({
  testId,
  linkType,
  details,
}: {
  testId: string;
  linkType: SimpleListProps<User & RaRecord>['linkType'];
  details: (record: User & RaRecord) => ReactNode;
}) {
  return (
    <SimpleList<User & RaRecord>
      linkType={linkType}
      primaryText={(record) => (
        <CardLine testId={testId} end={<EnumField source="status" enumName="userStatus" chip />}>
          {record.fullName || <Ltr>{record.email}</Ltr>}
        </CardLine>
      )}
      secondaryText={(record) => (
        <>
          <Ltr>{record.email}</Ltr>
          <br />
          {details(record)}
        </>
      )}
    />
  );
}

/** The columns both lists show, each list placing them among its own. */
export const PERSON_COLUMNS = {
  /** Every list of people starts with these two. */
  nameAndEmail: [
    <DataTable.Col key="fullName" source="fullName" />,
    <DataTable.Col key="email" source="email">
      <Ltr>
        <TextField source="email" />
      </Ltr>
    </DataTable.Col>,
  ],
  role: (
    <DataTable.Col key="role" source="role">
      <EnumField source="role" enumName="userRole" />
    </DataTable.Col>
  ),
  status: (
    <DataTable.Col key="status" source="status">
      <EnumField source="status" enumName="userStatus" chip />
    </DataTable.Col>
  ),
  registered: (
    <DataTable.Col key="userCreatedAt" source="userCreatedAt">
      <DateTimeField source="userCreatedAt" />
    </DataTable.Col>
  ),
};

/**
 * A list of people: filters inline on a wide screen and in a drawer on a phone, the create-staff button, newest
 * first; `cards` on a phone and `table` otherwise, below what `before` shows.
 */
export function PeopleList({
  filters,
  before,
  cards,
  table,
}: {
  filters: FilterElement[];
  before?: ReactNode;
  cards: ReactNode;
  table: ReactNode;
}) {
  const { inline, drawer } = useResponsiveFilters(filters);
  const phone = useIsPhone();
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
      {before}
      {phone ? cards : table}
    </List>
  );
}
