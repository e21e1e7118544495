import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { createLink } from '@tanstack/react-router';
import { clientEnumLabel, type Page as ResultPage, type Payment, type SortRequest } from '@kupa/proto';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { useT, type MessageKey } from '../../../lib/i18n/i18n';
import { RouterLink } from '../../../lib/ui/router-link';
import { PaymentAmount, PaymentPromoCode, PaymentStatusChip } from '../payment-money';
import { PAGE_SIZE_OPTIONS, type PaymentSortId } from './payments-search';

interface Column {
  label: MessageKey;
  sortId?: PaymentSortId;
  align?: 'right';
}

const COLUMNS: readonly Column[] = [
  { label: 'payments.column.id', sortId: 'paymentId' },
  { label: 'payments.column.createdAt', sortId: 'createdAt' },
  { label: 'payments.column.type', sortId: 'type' },
  { label: 'payments.column.method', sortId: 'method' },
  { label: 'payments.column.status', sortId: 'status' },
  { label: 'payments.column.amount', sortId: 'amount', align: 'right' },
];

/** Dates and amounts read best largest or newest first; names read best in order. */
const FIRST_CLICK_DESC: Readonly<Record<PaymentSortId, boolean>> = {
  createdAt: true,
  amount: true,
  paymentId: true,
  status: false,
  type: false,
  method: false,
  aggregator: false,
  userEmail: false,
};

const PAGE_BUTTON_LABELS: Record<'first' | 'last' | 'next' | 'previous', MessageKey> = {
  first: 'payments.pagination.first',
  last: 'payments.pagination.last',
  next: 'payments.pagination.next',
  previous: 'payments.pagination.previous',
};

const ListItemLink = createLink(ListItemButton);

/**
 * The page's payments on a phone, one card each: amount and status first (what a client looks for), then the type,
 * the time and the number. Each card links to the payment's detail.
 */
function PaymentCards({ payments }: { payments: readonly Payment[] }) {
  const { t, lang } = useT();
  return (
    <List disablePadding aria-label={t('payments.table.label')} data-testid="payments-cards">
      {payments.map((payment) => (
        <ListItem
          key={payment.paymentId}
          divider
          disablePadding
          data-testid="payments-row"
          data-payment-id={payment.paymentId}
        >
          <ListItemLink
            to="/payments/$paymentId"
            params={{ paymentId: String(payment.paymentId) }}
            data-testid="payments-row-link"
          >
            <Stack spacing={0.5} sx={{ width: '100%' }}>
              <Stack
                direction="row"
                spacing={1}
                useFlexGap
                sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap' }}
              >
                <span data-testid="payments-row-amount">
                  <PaymentAmount payment={payment} />
                </span>
                <span data-testid="payments-row-status">
                  <PaymentStatusChip status={payment.status} />
                </span>
              </Stack>
              <Typography variant="body2" data-testid="payments-row-type">
                {clientEnumLabel('paymentType', payment.type, lang)}
              </Typography>
              {payment.promoCode && (
                <Typography variant="body2" color="text.secondary">
                  <PaymentPromoCode payment={payment} testId="payments-row-promo-code" />
                </Typography>
              )}
              <Typography variant="body2" color="text.secondary">
                {formatDateTime(payment.createdAt, lang)} · <bdi>#{payment.paymentId}</bdi>
              </Typography>
            </Stack>
          </ListItemLink>
        </ListItem>
      ))}
      {payments.length === 0 && (
        <ListItem sx={{ justifyContent: 'center', py: 4, color: 'text.secondary' }}>{t('payments.pageEmpty')}</ListItem>
      )}
    </List>
  );
}

function pageButtonTestId(direction: 'previous' | 'next'): object {
  return { 'data-testid': `payments-page-${direction}` };
}

interface PaymentsTableProps {
  result: ResultPage<Payment>;
  sort: SortRequest;
  onSort: (sort: SortRequest) => void;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
}

/** One page of payments with sortable headers and paging; each id links to the payment's detail screen. */
export function PaymentsTable({ result, sort, onSort, onPage, onPageSize }: PaymentsTableProps) {
  const { t, lang } = useT();
  const theme = useTheme();
  const rtl = theme.direction === 'rtl';
  const phone = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  return (
    <Paper variant="outlined">
      {phone ? (
        <PaymentCards payments={result.content} />
      ) : (
        <TableContainer>
          <Table size="small" aria-label={t('payments.table.label')} data-testid="payments-table">
            <TableHead>
              <TableRow>
                {COLUMNS.map((column) => {
                  // "Right" is the logical end here: the RTL style plugin flips it for Hebrew.
                  const active = column.sortId !== undefined && sort.id === column.sortId;
                  return (
                    <TableCell
                      key={column.label}
                      align={column.align}
                      sortDirection={active ? (sort.desc ? 'desc' : 'asc') : false}
                      sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
                    >
                      {column.sortId === undefined ? (
                        t(column.label)
                      ) : (
                        <TableSortLabel
                          active={active}
                          direction={active && !sort.desc ? 'asc' : 'desc'}
                          data-testid={`payments-sort-${column.sortId}`}
                          onClick={() => {
                            const id = column.sortId as PaymentSortId;
                            onSort({ id, desc: active ? !sort.desc : FIRST_CLICK_DESC[id] });
                          }}
                        >
                          {t(column.label)}
                        </TableSortLabel>
                      )}
                    </TableCell>
                  );
                })}
              </TableRow>
            </TableHead>
            <TableBody>
              {result.content.map((payment) => (
                <TableRow key={payment.paymentId} hover data-testid="payments-row" data-payment-id={payment.paymentId}>
                  <TableCell>
                    <RouterLink
                      to="/payments/$paymentId"
                      params={{ paymentId: String(payment.paymentId) }}
                      aria-label={t('payments.row.open', { id: payment.paymentId })}
                      data-testid="payments-row-link"
                    >
                      <bdi>#{payment.paymentId}</bdi>
                    </RouterLink>
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(payment.createdAt, lang)}</TableCell>
                  <TableCell data-testid="payments-row-type">
                    {clientEnumLabel('paymentType', payment.type, lang)}
                  </TableCell>
                  <TableCell data-testid="payments-row-method">
                    {clientEnumLabel('paymentMethod', payment.method, lang)}
                  </TableCell>
                  <TableCell data-testid="payments-row-status">
                    <PaymentStatusChip status={payment.status} />
                  </TableCell>
                  <TableCell align="right" data-testid="payments-row-amount">
                    <PaymentAmount payment={payment} />
                    {payment.promoCode && (
                      <Typography variant="caption" color="text.secondary" component="div">
                        <PaymentPromoCode payment={payment} testId="payments-row-promo-code" />
                      </Typography>
                    )}
                  </TableCell>
                </TableRow>
              ))}
              {result.content.length === 0 && (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                    {t('payments.pageEmpty')}
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <TablePagination
        component="div"
        data-testid="payments-pagination"
        count={result.totalElements}
        page={result.page}
        rowsPerPage={result.size}
        rowsPerPageOptions={[...PAGE_SIZE_OPTIONS]}
        onPageChange={(_event, page) => onPage(page)}
        onRowsPerPageChange={(event) => onPageSize(Number(event.target.value))}
        labelRowsPerPage={t('payments.pagination.rowsPerPage')}
        labelDisplayedRows={({ from, to, count }) =>
          t('payments.pagination.displayed', {
            from: formatNumber(from, lang),
            to: formatNumber(to, lang),
            count: formatNumber(count, lang),
          })
        }
        getItemAriaLabel={(type) => t(PAGE_BUTTON_LABELS[type])}
        slotProps={{
          // MUI swaps the previous and next slots in right-to-left layouts (they name sides, not directions), so the
          // test ids are swapped back to stay on the buttons that go to the previous and the next page.
          actions: rtl
            ? { previousButton: pageButtonTestId('next'), nextButton: pageButtonTestId('previous') }
            : { previousButton: pageButtonTestId('previous'), nextButton: pageButtonTestId('next') },
        }}
      />
    </Paper>
  );
}
