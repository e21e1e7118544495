import {
  type GeneratedVoucherBatch,
  LIMITS,
  type Plan,
  type VoucherBatch,
  type VoucherBatchList,
  type VoucherFunding,
  type VoucherKind,
} from '@kupa/proto';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormLabel,
  MenuItem,
  Radio,
  RadioGroup,
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
import { Title, useNotify, useTranslate } from 'react-admin';
import { Ltr } from '../shared/ltr';
import { useIsPhone } from '../shared/responsive';
import { Money } from '../shared/money';
import { vouchersApi } from './vouchers-api';

type LoadState =
  { status: 'loading' } | { status: 'ready'; list: VoucherBatchList } | { status: 'failed'; message: string };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Vouchers (docs/product.md, Prepaid vouchers): every batch with how many codes were redeemed and what it still owes,
 * the total owed (the balance of `liability:vouchers`), a generate dialog whose answer shows the new codes, and per
 * batch "record sold", "record given away" and the CSV of its codes.
 */
export function VoucherBatchesPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [generating, setGenerating] = useState(false);
  const [generated, setGenerated] = useState<GeneratedVoucherBatch | null>(null);
  const [funding, setFunding] = useState<{ batchId: string; kind: VoucherKind; funding: VoucherFunding } | null>(null);
  const isPhone = useIsPhone();

  const load = useCallback(() => {
    vouchersApi.list().then(
      (list) => setState({ status: 'ready', list }),
      (error: unknown) => setState({ status: 'failed', message: messageOf(error) }),
    );
  }, []);
  useEffect(load, [load]);

  const download = (batchId: string) =>
    void vouchersApi.downloadCodes(batchId).catch((error: unknown) => notify(messageOf(error), { type: 'error' }));

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title={translate('kupa.vouchers.title')} />
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <Card variant="outlined" sx={{ flexGrow: 1 }}>
            <CardContent>
              <Typography variant="body2" color="text.secondary">
                {translate('kupa.vouchers.outstandingTotal')}
              </Typography>
              <Typography variant="h5" component="p" data-testid="vouchers-outstanding-total">
                {state.status === 'ready' ? <Money amount={state.list.outstandingTotal} /> : '—'}
              </Typography>
            </CardContent>
          </Card>
          <Button variant="contained" onClick={() => setGenerating(true)} data-testid="vouchers-generate-open">
            {translate('kupa.vouchers.generate')}
          </Button>
        </Stack>
        {state.status === 'failed' ? (
          <Alert severity="error">{state.message}</Alert>
        ) : state.status === 'loading' ? (
          <Skeleton variant="rounded" height={240} />
        ) : state.list.items.length === 0 ? (
          <Typography color="text.secondary">{translate('kupa.vouchers.empty')}</Typography>
        ) : isPhone ? (
          <Stack spacing={1.5} data-testid="vouchers-table">
            {state.list.items.map((batch) => (
              <Card variant="outlined" key={batch.id} data-testid={`voucher-batch-${batch.id}`}>
                <CardContent>
                  <Typography variant="subtitle1" component="h2">
                    {batch.label}
                  </Typography>
                  <Typography variant="body2">
                    {translate('kupa.vouchers.count')}: {batch.count} · {translate('kupa.vouchers.amount')}:{' '}
                    <BatchWorth batch={batch} />
                  </Typography>
                  <Typography variant="body2">
                    {translate('kupa.vouchers.funding')}:{' '}
                    {translate(`kupa.vouchers.fundings.${batch.funding ?? 'NONE'}`)}
                  </Typography>
                  <Typography variant="body2">
                    {translate('kupa.vouchers.redeemed')}: {batch.redeemedCount} ·{' '}
                    {translate('kupa.vouchers.outstanding')}: <Money amount={batch.outstanding} />
                  </Typography>
                  <Box sx={{ mt: 1 }}>
                    <BatchActions batch={batch} onFund={setFunding} onDownload={download} />
                  </Box>
                </CardContent>
              </Card>
            ))}
          </Stack>
        ) : (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" data-testid="vouchers-table" aria-label={translate('kupa.vouchers.title')}>
              <TableHead>
                <TableRow>
                  <TableCell>{translate('kupa.vouchers.label')}</TableCell>
                  <TableCell>{translate('kupa.vouchers.count')}</TableCell>
                  <TableCell>{translate('kupa.vouchers.amount')}</TableCell>
                  <TableCell>{translate('kupa.vouchers.funding')}</TableCell>
                  <TableCell>{translate('kupa.vouchers.redeemed')}</TableCell>
                  <TableCell>{translate('kupa.vouchers.outstanding')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {state.list.items.map((batch) => (
                  <TableRow key={batch.id} data-testid={`voucher-batch-${batch.id}`}>
                    <TableCell>{batch.label}</TableCell>
                    <TableCell>{batch.count}</TableCell>
                    <TableCell>
                      <BatchWorth batch={batch} />
                    </TableCell>
                    <TableCell>{translate(`kupa.vouchers.fundings.${batch.funding ?? 'NONE'}`)}</TableCell>
                    <TableCell>{batch.redeemedCount}</TableCell>
                    <TableCell>
                      <Money amount={batch.outstanding} />
                    </TableCell>
                    <TableCell>
                      <BatchActions batch={batch} onFund={setFunding} onDownload={download} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </Stack>
      {generating && (
        <GenerateDialog
          onClose={() => setGenerating(false)}
          onGenerated={(batch) => {
            setGenerating(false);
            setGenerated(batch);
            load();
          }}
        />
      )}
      {generated && <CodesDialog generated={generated} onClose={() => setGenerated(null)} onDownload={download} />}
      {funding && (
        <FundDialog
          {...funding}
          onClose={() => setFunding(null)}
          onFunded={() => {
            setFunding(null);
            notify('kupa.vouchers.funded', { type: 'success' });
            load();
          }}
        />
      )}
    </Box>
  );
}

/** What each code gives: money, or (a day voucher, ADR 0089) days of a package. */
function BatchWorth({ batch }: { batch: VoucherBatch }) {
  const translate = useTranslate();
  if (batch.kind === 'DAYS')
    return <>{translate('kupa.vouchers.daysOf', { days: batch.days ?? 0, plan: batch.planName ?? '' })}</>;
  return <Money amount={batch.amount} />;
}

/** What an admin may do with a batch: fund it while it is not, and download its codes. */
function BatchActions({
  batch,
  onFund,
  onDownload,
}: {
  batch: VoucherBatch;
  onFund: (choice: { batchId: string; kind: VoucherKind; funding: VoucherFunding }) => void;
  onDownload: (batchId: string) => void;
}) {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {batch.funding === null && (
        <>
          <Button size="small" onClick={() => onFund({ batchId: batch.id, kind: batch.kind, funding: 'SOLD' })}>
            {translate('kupa.vouchers.recordSold')}
          </Button>
          <Button size="small" onClick={() => onFund({ batchId: batch.id, kind: batch.kind, funding: 'GIVEN_AWAY' })}>
            {translate('kupa.vouchers.recordGiven')}
          </Button>
        </>
      )}
      <Button size="small" onClick={() => onDownload(batch.id)} data-testid="vouchers-csv">
        {translate('kupa.vouchers.csv')}
      </Button>
    </Stack>
  );
}

function GenerateDialog({
  onClose,
  onGenerated,
}: {
  onClose: () => void;
  onGenerated: (batch: GeneratedVoucherBatch) => void;
}) {
  const translate = useTranslate();
  const [label, setLabel] = useState('');
  const [count, setCount] = useState('10');
  const [kind, setKind] = useState<VoucherKind>('MONEY');
  const [amount, setAmount] = useState('');
  const [days, setDays] = useState('30');
  const [planId, setPlanId] = useState('');
  const [packages, setPackages] = useState<Plan[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // The packages are asked for once a day batch is chosen: a money batch needs none.
  useEffect(() => {
    if (kind !== 'DAYS' || packages !== null) return;
    const controller = new AbortController();
    vouchersApi.packagesOnSale(controller.signal).then(setPackages, (failure: unknown) => {
      if (!controller.signal.aborted) setError(messageOf(failure));
    });
    return () => controller.abort();
  }, [kind, packages]);
  const submit = () => {
    setPending(true);
    setError(null);
    const common = { label: label.trim(), count: Number(count) };
    const request =
      kind === 'DAYS'
        ? { ...common, kind: 'DAYS' as const, days: Number(days), planId }
        : { ...common, amount: Number(amount) };
    vouchersApi.generate(request).then(onGenerated, (failure: unknown) => {
      setPending(false);
      setError(messageOf(failure));
    });
  };
  // What the API would refuse with a generic "some fields are invalid" is said before sending.
  const incomplete = label.trim() === '' || (kind === 'DAYS' && planId === '');
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{translate('kupa.vouchers.generate')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {error && <Alert severity="error">{error}</Alert>}
          <TextField
            label={translate('kupa.vouchers.label')}
            value={label}
            onChange={(event) => setLabel(event.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'vouchers-label' } }}
            required
          />
          <TextField
            label={translate('kupa.vouchers.count')}
            value={count}
            type="number"
            onChange={(event) => setCount(event.target.value)}
            slotProps={{ htmlInput: { min: 1, max: 1000, 'data-testid': 'vouchers-count' } }}
          />
          <Box>
            <FormLabel id="vouchers-kind-label">{translate('kupa.vouchers.kind')}</FormLabel>
            <RadioGroup
              row
              aria-labelledby="vouchers-kind-label"
              value={kind}
              onChange={(event) => setKind(event.target.value as VoucherKind)}
            >
              <FormControlLabel value="MONEY" control={<Radio />} label={translate('kupa.vouchers.kinds.MONEY')} />
              <FormControlLabel value="DAYS" control={<Radio />} label={translate('kupa.vouchers.kinds.DAYS')} />
            </RadioGroup>
          </Box>
          {kind === 'MONEY' ? (
            <TextField
              label={translate('kupa.vouchers.amount')}
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr', 'data-testid': 'vouchers-amount' } }}
            />
          ) : (
            <>
              <TextField
                label={translate('kupa.vouchers.days')}
                value={days}
                type="number"
                onChange={(event) => setDays(event.target.value)}
                slotProps={{
                  htmlInput: { min: 1, max: LIMITS.extensionMaxDays, 'data-testid': 'vouchers-days' },
                }}
              />
              <TextField
                select
                label={translate('kupa.vouchers.package')}
                value={planId}
                onChange={(event) => setPlanId(event.target.value)}
                required
                disabled={packages === null}
                slotProps={{ htmlInput: { 'data-testid': 'vouchers-package' } }}
              >
                {(packages ?? []).map((plan) => (
                  <MenuItem key={plan.id} value={plan.id}>
                    {plan.name}
                  </MenuItem>
                ))}
              </TextField>
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          onClick={submit}
          loading={pending}
          disabled={incomplete}
          data-testid="vouchers-generate"
        >
          {translate('kupa.vouchers.generate')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function CodesDialog({
  generated,
  onClose,
  onDownload,
}: {
  generated: GeneratedVoucherBatch;
  onClose: () => void;
  onDownload: (batchId: string) => void;
}) {
  const translate = useTranslate();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{translate('kupa.vouchers.codesTitle', { count: generated.codes.length })}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('kupa.vouchers.codesHint')}
        </Typography>
        <Box component="ul" sx={{ columns: { sm: 2 }, m: 0, ps: 3 }} data-testid="vouchers-codes">
          {generated.codes.map((code) => (
            <li key={code}>
              <Ltr>
                <code>{code}</code>
              </Ltr>
            </li>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onDownload(generated.batch.id)}>{translate('kupa.vouchers.csv')}</Button>
        <Button variant="contained" onClick={onClose}>
          {translate('ra.action.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function FundDialog({
  batchId,
  kind,
  funding,
  onClose,
  onFunded,
}: {
  batchId: string;
  kind: VoucherKind;
  funding: VoucherFunding;
  onClose: () => void;
  onFunded: () => void;
}) {
  const translate = useTranslate();
  const [comment, setComment] = useState('');
  const [choice, setChoice] = useState<VoucherFunding>(funding);
  const [received, setReceived] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // A sold day batch records the money received for it, as a manual payment does; a money batch's worth is known.
  const asksReceived = kind === 'DAYS' && choice === 'SOLD';
  const submit = () => {
    setPending(true);
    const amount = asksReceived ? Number(received) : undefined;
    vouchersApi.fund(batchId, choice, comment.trim(), amount).then(onFunded, (failure: unknown) => {
      setPending(false);
      setError(messageOf(failure));
    });
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>
        {translate(choice === 'SOLD' ? 'kupa.vouchers.recordSold' : 'kupa.vouchers.recordGiven')}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {error && <Alert severity="error">{error}</Alert>}
          <TextField
            select
            label={translate('kupa.vouchers.funding')}
            value={choice}
            onChange={(event) => setChoice(event.target.value as VoucherFunding)}
          >
            <MenuItem value="SOLD">{translate('kupa.vouchers.fundings.SOLD')}</MenuItem>
            <MenuItem value="GIVEN_AWAY">{translate('kupa.vouchers.fundings.GIVEN_AWAY')}</MenuItem>
          </TextField>
          {asksReceived && (
            <TextField
              label={translate('kupa.vouchers.received')}
              helperText={translate('kupa.vouchers.receivedHint')}
              value={received}
              onChange={(event) => setReceived(event.target.value)}
              required
              slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr', 'data-testid': 'vouchers-fund-amount' } }}
            />
          )}
          <TextField
            label={translate('kupa.vouchers.comment')}
            helperText={translate('kupa.vouchers.commentHint')}
            value={comment}
            multiline
            minRows={2}
            onChange={(event) => setComment(event.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'vouchers-fund-comment' } }}
            required
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        {/* The comment is the ledger's record of who paid or why it is a gift: required, so asked for up front. */}
        <Button
          variant="contained"
          onClick={submit}
          loading={pending}
          disabled={comment.trim() === '' || (asksReceived && received.trim() === '')}
          data-testid="vouchers-fund"
        >
          {translate('ra.action.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
