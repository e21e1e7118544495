import { LIMITS, type User, userAccount, type UserRole } from '@kupa/proto';
import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import { Box, Button } from '@mui/material';
import {
  DataTable,
  Link,
  type RaRecord,
  ReferenceManyField,
  usePermissions,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { accountHistoryPath } from '../ledger/account-paths';
import { PaymentCards } from '../payments/payment-cards';
import { paymentColumns } from '../payments/payment-columns';
import { useAdminPath } from '../shared/admin-path';
import { EmptyState } from '../shared/empty-state';
import { bodyWithRowTestId } from '../shared/test-id-rows';
import { ListPagination } from '../shared/list-pagination';
import { useIsPhone } from '../shared/responsive';
import { SavedCardLine } from './saved-card';

const ClientPaymentRows = bodyWithRowTestId('client-payments-row');

/** A link to the ledger history of a client's balance account, `user:{uuid}`. */
export function AccountHistoryLink({ userUuid }: { userUuid: string }) {
  const translate = useTranslate();
  const adminPath = useAdminPath();
  return (
    <Button
      size="small"
      component={Link}
      to={adminPath(accountHistoryPath(userAccount(userUuid)))}
      startIcon={<AccountBalanceIcon />}
      data-testid="client-account-history"
    >
      {translate('kupa.clients.balance.history')}
    </Button>
  );
}

/**
 * The client's payments (`POST /api/payments/search/{userUuid}`, open to admins and managers) and the card saved for
 * automatic renewals. Only admins may open a payment's detail (docs/product.md, Screens), so only their rows are links.
 */
export function PaymentsTab() {
  const record = useRecordContext<User & RaRecord>();
  const translate = useTranslate();
  const { permissions } = usePermissions<UserRole | null>();
  const phone = useIsPhone();
  if (!record) return null;
  return (
    <Box data-testid="client-payments">
      <Box
        sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}
      >
        <SavedCardLine userUuid={record.userUuid} />
        <AccountHistoryLink userUuid={record.userUuid} />
      </Box>
      <ReferenceManyField
        reference="payments"
        target="userUuid"
        sort={{ field: 'createdAt', order: 'DESC' }}
        perPage={LIMITS.pageSizeDefault}
        pagination={<ListPagination />}
        empty={<EmptyState testId="client-payments-empty" title={translate('kupa.clients.payments_empty')} />}
      >
        {phone ? (
          <PaymentCards withUser={false} linkType={permissions === 'ADMIN' ? 'show' : false} />
        ) : (
          <DataTable
            rowClick={permissions === 'ADMIN' ? 'show' : false}
            bulkActionButtons={false}
            body={ClientPaymentRows}
          >
            {paymentColumns({ withUser: false })}
          </DataTable>
        )}
      </ReferenceManyField>
    </Box>
  );
}
