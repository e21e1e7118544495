import { LIMITS, type User } from '@kupa/proto';
import { Box } from '@mui/material';
import { DataTable, type RaRecord, ReferenceManyField, useRecordContext, useTranslate } from 'react-admin';
import { EmptyState } from '../shared/empty-state';
import { ListPagination } from '../shared/list-pagination';
import { useIsPhone } from '../shared/responsive';
import { bodyWithRowTestId } from '../shared/test-id-rows';
import { SubscriptionCards } from '../subscriptions/subscription-cards';
import { COMPACT_CELLS, subscriptionColumns } from '../subscriptions/subscription-columns';

const ClientSubscriptionRows = bodyWithRowTestId('client-subscriptions-row');

/**
 * The client's subscriptions (`POST /api/subscriptions/search` with their `userUuid`), newest first, for both staff
 * roles; each row opens the subscription's details, where staff change its login or password or cancel it.
 */
export function SubscriptionsTab() {
  const record = useRecordContext<User & RaRecord>();
  const translate = useTranslate();
  const phone = useIsPhone();
  if (!record) return null;
  return (
    <Box data-testid="client-subscriptions">
      <ReferenceManyField
        reference="subscriptions"
        target="userUuid"
        sort={{ field: 'createdAt', order: 'DESC' }}
        perPage={LIMITS.pageSizeDefault}
        pagination={<ListPagination />}
        empty={<EmptyState testId="client-subscriptions-empty" title={translate('kupa.clients.subscriptions_empty')} />}
      >
        {phone ? (
          <SubscriptionCards withUser={false} />
        ) : (
          <DataTable rowClick="show" bulkActionButtons={false} body={ClientSubscriptionRows} sx={COMPACT_CELLS}>
            {subscriptionColumns({ withUser: false })}
          </DataTable>
        )}
      </ReferenceManyField>
    </Box>
  );
}
