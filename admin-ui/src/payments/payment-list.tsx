import {
  formatErrorMessage,
  isPaymentKeywordBounded,
  LIMITS,
  PAYMENT_AGGREGATORS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PAYMENT_TYPES,
  paymentKeywordBoundText,
  paymentKeywordTooShort,
} from '@kupa/proto';
import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import { Button } from '@mui/material';
import {
  DataTable,
  DateInput,
  Link,
  List,
  SearchInput,
  SelectArrayInput,
  TextInput,
  useListContext,
  useTranslate,
} from 'react-admin';
import { ACCOUNT_HISTORY_PATH } from '../ledger/account-paths';
import { toPositiveInteger } from '../providers/filter-values';
import { useAdminPath } from '../shared/admin-path';
import { useEnumChoices } from '../shared/enum-choices';
import { bodyWithRowTestId } from '../shared/test-id-rows';
import { useLang } from '../shared/use-lang';
import { PaymentsExportButton } from './export-button';
import { paymentColumns } from './payment-columns';
import { ListPagination } from '../shared/list-pagination';
import { type FilterElement, ResponsiveListActions, useIsPhone, useResponsiveFilters } from '../shared/responsive';
import { PaymentCards } from './payment-cards';

const PaymentRows = bodyWithRowTestId('payments-row');

/** The payment id filter takes a whole number; anything else is refused before it reaches the list. */
function useIntegerValidator() {
  const lang = useLang();
  return (value: unknown) => {
    const text = typeof value === 'string' ? value.trim() : value === null || value === undefined ? '' : String(value);
    return text === '' || toPositiveInteger(text) !== undefined
      ? undefined
      : formatErrorMessage('error.validation.integer', lang);
  };
}

/**
 * The keyword over every client's payments (ADR 0115): shorter than three characters it is refused on the field
 * (digits excepted: a payment number) and never sent; while no date is picked, the field says the search looks at
 * the latest payments only.
 */
function PaymentKeywordInput(props: { source: string; alwaysOn?: boolean }) {
  const lang = useLang();
  const { filterValues } = useListContext();
  const keyword = typeof filterValues.keyWord === 'string' ? filterValues.keyWord : '';
  const bounded = isPaymentKeywordBounded(keyword, filterValues.createdDateFrom, filterValues.createdDateTo);
  const validate = (value: unknown) => {
    const tooShort = typeof value === 'string' ? paymentKeywordTooShort(value) : null;
    return tooShort ? formatErrorMessage('error.validation.min.length', lang, tooShort) : undefined;
  };
  return (
    <SearchInput
      {...props}
      validate={validate}
      helperText={bounded ? paymentKeywordBoundText(lang) : false}
      // Filter forms hide helper text; the rule and a refusal must both show, or the list would seem to ignore them.
      sx={{ '& .MuiFormHelperText-root': { display: 'block' } }}
      slotProps={{ htmlInput: { maxLength: LIMITS.keywordMaxLength, 'data-testid': 'payments-search' } }}
    />
  );
}

function usePaymentFilters() {
  const statusChoices = useEnumChoices('paymentStatus', PAYMENT_STATUSES);
  const methodChoices = useEnumChoices('paymentMethod', PAYMENT_METHODS);
  const typeChoices = useEnumChoices('paymentType', PAYMENT_TYPES);
  const aggregatorChoices = useEnumChoices('paymentAggregator', PAYMENT_AGGREGATORS);
  const integer = useIntegerValidator();
  return [
    <PaymentKeywordInput key="keyWord" source="keyWord" alwaysOn />,
    <TextInput
      key="id"
      source="id"
      alwaysOn
      validate={integer}
      // Filter forms hide helper text; a refused id must say why, or the list would seem to ignore it.
      sx={{ '& .MuiFormHelperText-root.Mui-error': { display: 'block' } }}
      slotProps={{ htmlInput: { inputMode: 'numeric', dir: 'ltr', 'data-testid': 'payments-id-filter' } }}
    />,
    <SelectArrayInput key="statuses" source="statuses" choices={statusChoices} translateChoice={false} />,
    <SelectArrayInput key="types" source="types" choices={typeChoices} translateChoice={false} />,
    <SelectArrayInput key="methods" source="methods" choices={methodChoices} translateChoice={false} />,
    <SelectArrayInput key="aggregators" source="aggregators" choices={aggregatorChoices} translateChoice={false} />,
    <DateInput key="createdDateFrom" source="createdDateFrom" />,
    <DateInput key="createdDateTo" source="createdDateTo" />,
    <TextInput
      key="promoCode"
      source="promoCode"
      slotProps={{ htmlInput: { maxLength: 32, dir: 'ltr', 'data-testid': 'payments-promo-code-filter' } }}
    />,
  ];
}

function PaymentListActions({ drawer }: { drawer: FilterElement[] }) {
  const translate = useTranslate();
  const adminPath = useAdminPath();
  return (
    <ResponsiveListActions drawer={drawer}>
      <PaymentsExportButton />
      <Button
        size="small"
        component={Link}
        to={adminPath(ACCOUNT_HISTORY_PATH)}
        startIcon={<AccountBalanceIcon />}
        data-testid="payments-ledger"
      >
        {translate('kupa.ledger.title')}
      </Button>
    </ResponsiveListActions>
  );
}

export function PaymentList() {
  const { inline, drawer } = useResponsiveFilters(usePaymentFilters());
  const phone = useIsPhone();
  return (
    <List
      filters={inline}
      actions={<PaymentListActions drawer={drawer} />}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={LIMITS.pageSizeDefault}
      pagination={<ListPagination />}
      // react-admin's exporter stops at 1000 rows and writes no BOM; the toolbar's export button uses the server's.
      exporter={false}
    >
      {phone ? (
        <PaymentCards withUser linkType="show" />
      ) : (
        <DataTable rowClick="show" bulkActionButtons={false} body={PaymentRows}>
          {paymentColumns({ withUser: true })}
        </DataTable>
      )}
    </List>
  );
}
