import { type DepositClaim, LIMITS, randomUuid } from '@kupa/proto';
import {
  Alert,
  Button,
  Card,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { Link, Title, useNotify, usePermissions, useTranslate } from 'react-admin';
import { Ltr } from '../shared/ltr';
import { Money } from '../shared/money';
import { useIsPhone } from '../shared/responsive';
import { useLang } from '../shared/use-lang';
import { depositClaimsApi } from './deposit-claims-api';

type LoadState =
  { status: 'loading' } | { status: 'ready'; claims: DepositClaim[] } | { status: 'failed'; message: string };

type Action = { kind: 'settle' | 'reject'; claim: DepositClaim };

const STATUS_COLOR = { OPEN: 'warning', SETTLED: 'success', REJECTED: 'default' } as const;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Transfer claims (docs/product.md, Manual-transfer claims): what clients say they sent by bank transfer, open first.
 * An admin settles one by recording the manual deposit for it (the amount prefilled with the claim's); admins and
 * managers reject one with a reason the client reads.
 */
export function DepositClaimsPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const { permissions } = usePermissions<string>();
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [action, setAction] = useState<Action | null>(null);
  const lang = useLang();
  // On a phone the note and the date go under the client, so that the status and the buttons stay on screen.
  const isPhone = useIsPhone();
  const claimedAt = (claim: DepositClaim) =>
    new Date(claim.claimedAt).toLocaleString(lang === 'he' ? 'he-IL' : 'en-GB');

  const load = useCallback(async (signal?: AbortSignal) => {
    try {
      setState({ status: 'ready', claims: await depositClaimsApi.list(signal) });
    } catch (error) {
      if (!signal?.aborted) setState({ status: 'failed', message: messageOf(error) });
    }
  }, []);
  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      <Title title={translate('kupa.depositClaims.title')} />
      {state.status === 'loading' && <Skeleton variant="rounded" height={160} />}
      {state.status === 'failed' && <Alert severity="error">{state.message}</Alert>}
      {state.status === 'ready' && state.claims.length === 0 && (
        <Typography color="text.secondary">{translate('kupa.depositClaims.empty')}</Typography>
      )}
      {state.status === 'ready' && state.claims.length > 0 && (
        <Card sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="deposit-claims-table" aria-label={translate('kupa.depositClaims.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('kupa.depositClaims.client')}</TableCell>
                <TableCell>{translate('kupa.depositClaims.amount')}</TableCell>
                {!isPhone && <TableCell>{translate('kupa.depositClaims.note')}</TableCell>}
                {!isPhone && <TableCell>{translate('kupa.depositClaims.claimedAt')}</TableCell>}
                <TableCell>{translate('kupa.depositClaims.status')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {state.claims.map((claim) => (
                <TableRow key={claim.claimId} data-testid={`deposit-claim-${claim.claimId}`}>
                  <TableCell>
                    <Link to={`/clients/${claim.userUuid}/show`}>{claim.clientName}</Link>{' '}
                    <Ltr>({claim.reference})</Ltr>
                    {isPhone && (
                      <Typography variant="body2" color="text.secondary">
                        {[claim.note, claimedAt(claim)].filter(Boolean).join(' · ')}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    <Money amount={claim.amount} />
                  </TableCell>
                  {!isPhone && <TableCell sx={{ maxWidth: 240 }}>{claim.note ?? '—'}</TableCell>}
                  {!isPhone && (
                    <TableCell>
                      <Ltr>{claimedAt(claim)}</Ltr>
                    </TableCell>
                  )}
                  <TableCell>
                    <Chip
                      size="small"
                      color={STATUS_COLOR[claim.status]}
                      label={translate(`kupa.depositClaims.statuses.${claim.status}`)}
                    />
                    {claim.reasonText && (
                      <Typography variant="body2" color="text.secondary">
                        {claim.reasonText}
                      </Typography>
                    )}
                    {claim.paymentId !== null && (
                      <Typography variant="body2" component="div">
                        <Link to={`/payments/${claim.paymentId}/show`}>#{claim.paymentId}</Link>
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    {claim.status === 'OPEN' && (
                      <Stack direction="row" spacing={1}>
                        {permissions === 'ADMIN' && (
                          <Button
                            size="small"
                            variant="contained"
                            data-testid={`deposit-claim-settle-${claim.claimId}`}
                            onClick={() => setAction({ kind: 'settle', claim })}
                          >
                            {translate('kupa.depositClaims.settle')}
                          </Button>
                        )}
                        <Button
                          size="small"
                          color="error"
                          data-testid={`deposit-claim-reject-${claim.claimId}`}
                          onClick={() => setAction({ kind: 'reject', claim })}
                        >
                          {translate('kupa.depositClaims.reject')}
                        </Button>
                      </Stack>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
      {action && (
        <ClaimDialog
          action={action}
          onClose={() => setAction(null)}
          onDone={async () => {
            notify(action.kind === 'settle' ? 'kupa.depositClaims.settled' : 'kupa.depositClaims.rejected', {
              type: 'success',
            });
            setAction(null);
            await load();
          }}
        />
      )}
    </Stack>
  );
}

/** Settle (the manual deposit, amount prefilled) or reject (a reason the client reads), in one small dialog. */
function ClaimDialog({
  action,
  onClose,
  onDone,
}: {
  action: Action;
  onClose: () => void;
  onDone: () => Promise<void>;
}) {
  const translate = useTranslate();
  const { claim, kind } = action;
  const [amount, setAmount] = useState(String(claim.amount));
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // One key per dialog: a retried submission of the same deposit books it once.
  const [idempotencyKey] = useState(randomUuid);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      if (kind === 'settle') await depositClaimsApi.settle(claim, Number(amount), text.trim(), idempotencyKey);
      else await depositClaimsApi.reject(claim.claimId, text.trim());
      await onDone();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" data-testid="deposit-claim-dialog">
      <DialogTitle>
        {translate(kind === 'settle' ? 'kupa.depositClaims.settleTitle' : 'kupa.depositClaims.rejectTitle', {
          name: claim.clientName ?? claim.reference,
        })}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {kind === 'settle' && (
            <TextField
              label={translate('kupa.depositClaims.amount')}
              type="number"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              slotProps={{ htmlInput: { 'data-testid': 'deposit-claim-amount', step: '0.01', min: '0' } }}
            />
          )}
          <TextField
            label={translate(kind === 'settle' ? 'kupa.depositClaims.comment' : 'kupa.depositClaims.reason')}
            value={text}
            onChange={(event) => setText(event.target.value)}
            multiline
            required
            slotProps={{
              htmlInput: {
                'data-testid': 'deposit-claim-text',
                maxLength: kind === 'settle' ? LIMITS.textMaxLength : LIMITS.publicNoteMaxLength,
              },
            }}
          />
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          color={kind === 'settle' ? 'primary' : 'error'}
          disabled={busy || text.trim() === ''}
          onClick={() => void submit()}
          data-testid="deposit-claim-submit"
        >
          {translate(kind === 'settle' ? 'kupa.depositClaims.settle' : 'kupa.depositClaims.reject')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
