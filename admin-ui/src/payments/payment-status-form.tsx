import {
  checkPublicNote,
  formatErrorMessage,
  LIMITS,
  type Payment,
  type PaymentStatus,
  staffStatusChoices,
} from '@kupa/proto';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { type RaRecord, useNotify, useRecordContext, useRefresh, useTranslate, useUpdate } from 'react-admin';
import { ApiError } from '../providers/http-client';
import { useEnumChoices } from '../shared/enum-choices';
import { Money } from '../shared/money';
import { NativeSelect } from '../shared/native-select';
import { useLang } from '../shared/use-lang';

type PaymentRecord = Payment & RaRecord;
/**
 * What the status form sends through `useUpdate`: the new status, the negative-balance confirmation when given, and
 * the note for the client when staff wrote one.
 */
type PaymentStatusUpdate = PaymentRecord & { confirmNegativeBalance?: boolean };

const NEGATIVE_BALANCE_CODE = 'error.balance.negative.confirmation.required';

/** The balance the server says the change would leave, from the 409's `details.resultingBalance`. */
function resultingBalanceOf(error: ApiError): number | null {
  const details = (error.body as { details?: { resultingBalance?: unknown } } | null)?.details;
  const value = Number(details?.resultingBalance);
  return details?.resultingBalance === undefined || !Number.isFinite(value) ? null : value;
}

/**
 * The manual status change of a payment (docs/product.md, Ledger). It waits for the server (`mutationMode:
 * 'pessimistic'`): a status change moves money, so it must never look done before the ledger has agreed. When the
 * change would leave the client's balance negative the server answers 409 with the resulting balance; staff see that
 * balance and must confirm, and only then is the change sent again with `confirmNegativeBalance`. Staff may add a note
 * for the client (the client sees it with the payment; docs/product.md, Ledger, What a client sees).
 */
export function PaymentStatusForm() {
  const record = useRecordContext<PaymentRecord>();
  if (!record) return null;
  // Re-mounting on a new status resets the select to what the server now holds.
  return <StatusForm key={record.status} record={record} />;
}

function StatusForm({ record }: { record: PaymentRecord }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const lang = useLang();
  // A provider's payment held for review may be closed by staff; other provider payments are the provider's.
  const allowed = staffStatusChoices(record);
  const choices = useEnumChoices('paymentStatus', allowed);
  const [status, setStatus] = useState<PaymentStatus>(record.status);
  const [publicNote, setPublicNote] = useState('');
  const [publicNoteError, setPublicNoteError] = useState<string | null>(null);
  const [confirmation, setConfirmation] = useState<{ status: PaymentStatus; resultingBalance: number | null } | null>(
    null,
  );
  const [update, { isPending }] = useUpdate<PaymentStatusUpdate>();
  const editable = allowed.length > 1;

  const send = (next: PaymentStatus, confirmNegativeBalance: boolean) => {
    const note = publicNote.trim();
    return update(
      'payments',
      {
        id: record.id,
        // The confirmation and the note go with the data: a `meta` would file the answer under another cache key
        // than the record this page shows (see the payments `update` of the data provider).
        data: {
          status: next,
          ...(confirmNegativeBalance ? { confirmNegativeBalance: true } : {}),
          ...(note ? { publicNote: note } : {}),
        },
        previousData: record,
      },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setConfirmation(null);
          notify('kupa.payments.status.changed', { type: 'success' });
          // The answer already replaced this payment in the cache; the client's balance and lists moved with it.
          refresh();
        },
        onError: (error) => {
          if (!confirmNegativeBalance && error instanceof ApiError && error.code === NEGATIVE_BALANCE_CODE) {
            setConfirmation({ status: next, resultingBalance: resultingBalanceOf(error) });
            return;
          }
          setConfirmation(null);
          const message = error instanceof Error ? error.message : String(error);
          notify(message, { type: 'error', messageArgs: { _: message } });
        },
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // An empty note is no note; one over the limit is refused with the catalogue's message, never cut.
    const issue = publicNote.trim() === '' ? null : checkPublicNote(publicNote);
    setPublicNoteError(issue ? formatErrorMessage(issue.error, lang, issue.params) : null);
    if (issue) return;
    void send(status, false);
  };

  return (
    <Box data-testid="payment-status">
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <NativeSelect<PaymentStatus>
            label={translate('resources.payments.fields.status')}
            value={status}
            choices={choices}
            onChange={setStatus}
            disabled={!editable || isPending}
            testId="payment-status-select"
            sx={{ flex: '1 1 auto', minWidth: 0 }}
          />
          <Button
            type="submit"
            variant="contained"
            disabled={!editable || isPending || status === record.status}
            data-testid="payment-status-save"
            // The card is narrow beside the payment at 1280 px: the label keeps to one line and the select gives way.
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          >
            {translate('kupa.payments.status.save')}
          </Button>
        </Box>
        {editable && record.publicNote ? (
          // What the client reads now: an empty note below keeps it (ADR 0078), a new one replaces it.
          <Typography variant="body2" data-testid="payment-status-current-note">
            {translate('kupa.payments.public_note.current')}{' '}
            <Box component="bdi" dir="auto">
              {record.publicNote}
            </Box>
          </Typography>
        ) : null}
        {editable ? (
          <TextField
            multiline
            minRows={2}
            size="small"
            label={translate('kupa.payments.public_note.label')}
            value={publicNote}
            onChange={(event) => {
              setPublicNote(event.target.value);
              setPublicNoteError(null);
            }}
            disabled={isPending}
            error={publicNoteError !== null}
            helperText={
              publicNoteError ??
              translate(record.publicNote ? 'kupa.payments.public_note.keep_hint' : 'kupa.payments.public_note.hint', {
                max: LIMITS.publicNoteMaxLength,
              })
            }
            slotProps={{ htmlInput: { dir: 'auto', 'data-testid': 'payment-status-public-note' } }}
          />
        ) : null}
      </Box>
      {editable ? null : (
        <Alert severity="info" sx={{ mt: 2 }} data-testid="payment-status-manual-only">
          {formatErrorMessage('error.payment.status.manual.only', lang)}
        </Alert>
      )}

      <Dialog
        open={confirmation !== null}
        onClose={() => setConfirmation(null)}
        aria-labelledby="negative-balance-title"
        data-testid="negative-balance-dialog"
      >
        <DialogTitle id="negative-balance-title">{translate('kupa.payments.status.negative_title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate('kupa.payments.status.negative_intro')}</DialogContentText>
          <Typography variant="h5" component="p" sx={{ mt: 1 }}>
            <Money amount={confirmation?.resultingBalance} testId="negative-balance-amount" />
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmation(null)} disabled={isPending} data-testid="negative-balance-cancel">
            {translate('ra.action.cancel')}
          </Button>
          <Button
            color="warning"
            variant="contained"
            disabled={isPending}
            onClick={() => confirmation && void send(confirmation.status, true)}
            data-testid="negative-balance-confirm"
          >
            {translate('kupa.payments.status.negative_confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
