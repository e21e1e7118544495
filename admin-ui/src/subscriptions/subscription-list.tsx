import { LIMITS, PLAN_DURATIONS_MONTHS, SUBSCRIPTION_STATUSES, SUBSCRIPTION_TYPES } from '@kupa/proto';
import {
  AutocompleteInput,
  DataTable,
  DateInput,
  List,
  ReferenceInput,
  SelectArrayInput,
  TextInput,
} from 'react-admin';
import { useEnumChoices } from '../shared/enum-choices';
import { ListPagination } from '../shared/list-pagination';
import { SHOW_FILTER_ERROR, usePriceBoundValidator } from '../shared/price-bound-validator';
import { type FilterElement, ResponsiveListActions, useIsPhone, useResponsiveFilters } from '../shared/responsive';
import { bodyWithRowTestId } from '../shared/test-id-rows';
import { SubscriptionCards } from './subscription-cards';
import { COMPACT_CELLS, subscriptionColumns } from './subscription-columns';

const SubscriptionRows = bodyWithRowTestId('subscriptions-row');

const DURATIONS = PLAN_DURATIONS_MONTHS.map(String);

/** The clients search takes a keyword (name, e-mail, profile ID); the user filter looks clients up with it. */
const clientKeyWord = (text: string) => ({ keyWord: text.trim() });

function useSubscriptionFilters(): FilterElement[] {
  const statusChoices = useEnumChoices('subscriptionStatus', SUBSCRIPTION_STATUSES);
  const typeChoices = useEnumChoices('subscriptionType', SUBSCRIPTION_TYPES);
  const durationChoices = useEnumChoices('planDuration', DURATIONS);
  const priceBound = usePriceBoundValidator();
  return [
    <TextInput
      key="id"
      source="id"
      alwaysOn
      slotProps={{ htmlInput: { dir: 'ltr', 'data-testid': 'subscriptions-id-filter' } }}
    />,
    <SelectArrayInput key="statuses" source="statuses" choices={statusChoices} translateChoice={false} alwaysOn />,
    <SelectArrayInput key="types" source="types" choices={typeChoices} translateChoice={false} />,
    <SelectArrayInput
      key="durationsInMonths"
      source="durationsInMonths"
      choices={durationChoices}
      translateChoice={false}
    />,
    <ReferenceInput key="userUuid" source="userUuid" reference="clients">
      <AutocompleteInput
        optionText="email"
        filterToQuery={clientKeyWord}
        translateChoice={false}
        slotProps={{ htmlInput: { dir: 'ltr' } } as object}
      />
    </ReferenceInput>,
    ...[
      ['priceFrom', 'subscriptions-price-from'],
      ['priceTo', 'subscriptions-price-to'],
    ].map(([source, testId]) => (
      <TextInput
        key={source}
        source={source}
        validate={priceBound}
        sx={SHOW_FILTER_ERROR}
        slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr', 'data-testid': testId } }}
      />
    )),
    ...['startDateFrom', 'startDateTo', 'endDateFrom', 'endDateTo', 'createdAtFrom', 'createdAtTo'].map((source) => (
      <DateInput key={source} source={source} />
    )),
  ];
}

/**
 * Every subscription, for admins (docs/product.md, Screens): filtered by id, status, type, duration, client, price
 * and start, end and creation dates; sorted by any column the search sorts by; each row opens the details.
 */
export function SubscriptionList() {
  const { inline, drawer } = useResponsiveFilters(useSubscriptionFilters());
  const phone = useIsPhone();
  return (
    <List
      filters={inline}
      actions={<ResponsiveListActions drawer={drawer} />}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={LIMITS.pageSizeDefault}
      pagination={<ListPagination />}
      exporter={false}
    >
      {phone ? (
        <SubscriptionCards withUser />
      ) : (
        <DataTable rowClick="show" bulkActionButtons={false} body={SubscriptionRows} sx={COMPACT_CELLS}>
          {subscriptionColumns({ withUser: true })}
        </DataTable>
      )}
    </List>
  );
}
