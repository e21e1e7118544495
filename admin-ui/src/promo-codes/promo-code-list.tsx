import {
  type CreatePromoCodeRequest,
  type PromoCodeDiscountKind,
  type PromoCodeHold,
  type PromoCodeUse,
  type PromoCodeView,
  type UserRole,
} from '@kupa/proto';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { Link, Title, useDataProvider, usePermissions, useTranslate } from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';
import { useAdminPath } from '../shared/admin-path';
import { EmptyState } from '../shared/empty-state';
import { Ltr } from '../shared/ltr';
import { Money } from '../shared/money';
import { useIsPhone } from '../shared/responsive';
import { useCommand } from '../shared/use-command';
import { useLang } from '../shared/use-lang';

/** Who may create and disable codes: admins; managers read the list (docs/product.md, Permissions). */
export function canManagePromoCodes(role: UserRole | null): boolean {
  return role === 'ADMIN';
}

/**
 * The promo codes (docs/adr/0088-promo-codes.md): each code with its discount, what it applies to, its uses against
 * its limit, the revenue of the payments that used it and the discount it gave; an admin creates a code here and
 * disables one for good.
 */
export function PromoCodeList() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const { permissions } = usePermissions<UserRole | null>();
  const canManage = canManagePromoCodes(permissions ?? null);
  const [codes, setCodes] = useState<PromoCodeView[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [holdsOf, setHoldsOf] = useState<string | null>(null);
  const { run, pending } = useCommand();
  const isPhone = useIsPhone();

  const load = useCallback(async () => {
    try {
      setCodes(await dataProvider.listPromoCodes());
      setLoadError(null);
    } catch (error) {
      setLoadError(error instanceof Error ? error.message : String(error));
    }
  }, [dataProvider]);

  useEffect(() => {
    void load();
  }, [load]);

  const disable = (code: string) =>
    void run(() => dataProvider.disablePromoCode(code), {
      successMessage: 'kupa.promo_codes.disabled',
      refresh: false,
    }).then(load);

  return (
    <Box sx={{ mt: 2 }} data-testid="promo-codes">
      <Title title={translate('resources.promo-codes.name', { smart_count: 2 })} />
      <Stack direction="row" sx={{ mb: 2, justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography variant="h6" component="h1">
          {translate('resources.promo-codes.name', { smart_count: 2 })}
        </Typography>
        {canManage && (
          <Button variant="contained" onClick={() => setCreating(true)} data-testid="promo-codes-create">
            {translate('kupa.promo_codes.create')}
          </Button>
        )}
      </Stack>
      {loadError && <Alert severity="error">{loadError}</Alert>}
      {codes !== null && codes.length === 0 && (
        <EmptyState testId="promo-codes-empty" title={translate('kupa.promo_codes.empty')} />
      )}
      {codes !== null && codes.length > 0 && isPhone && (
        // One card per code on a phone, as the console's other lists: a nine-column table would scroll sideways and
        // hide the uses and revenue the list is for (docs/product.md, Screens on a phone).
        <Stack spacing={1.5} data-testid="promo-codes-cards">
          {codes.map((code) => (
            <PromoCodeCard
              key={code.code}
              code={code}
              canManage={canManage}
              pending={pending}
              onDisable={() => disable(code.code)}
              onHolds={() => setHoldsOf(code.code)}
            />
          ))}
        </Stack>
      )}
      {codes !== null && codes.length > 0 && !isPhone && (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate('resources.promo-codes.fields.code')}</TableCell>
                <TableCell>{translate('resources.promo-codes.fields.discount')}</TableCell>
                <TableCell>{translate('resources.promo-codes.fields.appliesTo')}</TableCell>
                <TableCell>{translate('resources.promo-codes.fields.uses')}</TableCell>
                <TableCell>{translate('resources.promo-codes.fields.revenue')}</TableCell>
                <TableCell>{translate('resources.promo-codes.fields.discountGiven')}</TableCell>
                <TableCell>{translate('resources.promo-codes.fields.validUntil')}</TableCell>
                <TableCell>{translate('resources.promo-codes.fields.status')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {codes.map((code) => (
                <PromoCodeRow
                  key={code.code}
                  code={code}
                  canManage={canManage}
                  pending={pending}
                  onDisable={() => disable(code.code)}
                  onHolds={() => setHoldsOf(code.code)}
                />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <PromoCodeHoldsDialog code={holdsOf} onClose={() => setHoldsOf(null)} />
      <CreatePromoCodeDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          void load();
        }}
      />
    </Box>
  );
}

interface PromoCodeItemProps {
  code: PromoCodeView;
  canManage: boolean;
  pending: boolean;
  onDisable: () => void;
  onHolds: () => void;
}

/** What a code's row and its phone card both show, each part by the column it fills. */
function usePromoCodeParts({ code, canManage, pending, onDisable, onHolds }: PromoCodeItemProps) {
  const translate = useTranslate();
  const lang = useLang();
  const date = (iso: string | null) =>
    iso === null
      ? '—'
      : new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-US', { dateStyle: 'medium' }).format(new Date(iso));
  return {
    code: (
      <>
        <Ltr>{code.code}</Ltr>
        {code.newClientsOnly && (
          <Typography variant="caption" component="div" color="text.secondary">
            {translate('resources.promo-codes.fields.newClientsOnly')}
          </Typography>
        )}
      </>
    ),
    discount: code.discountKind === 'PERCENT' ? <Ltr>{`${code.percent ?? 0}%`}</Ltr> : <Money amount={code.amount} />,
    appliesTo: (
      <>
        {code.appliesTo.map((use) => translate(`kupa.promo_codes.use.${use}`)).join(', ')}
        {code.planIds !== null && (
          <Typography variant="caption" component="div" color="text.secondary">
            {translate('kupa.promo_codes.some_packages', { smart_count: code.planIds.length })}
          </Typography>
        )}
      </>
    ),
    uses: <Ltr>{code.maxUses === null ? String(code.uses) : `${code.uses} / ${code.maxUses}`}</Ltr>,
    revenue: <Money amount={code.revenue} />,
    discountGiven: <Money amount={code.discountGiven} />,
    validUntil: date(code.validUntil),
    status: (
      <Chip
        size="small"
        color={code.status === 'ACTIVE' ? 'success' : 'default'}
        label={translate(`kupa.promo_codes.status.${code.status}`)}
      />
    ),
    holds: (
      <Button size="small" onClick={onHolds} data-testid="promo-code-holds">
        {translate('kupa.promo_codes.holds')}
      </Button>
    ),
    disable:
      canManage && code.status === 'ACTIVE' ? (
        <Button size="small" color="warning" disabled={pending} onClick={onDisable} data-testid="promo-code-disable">
          {translate('kupa.promo_codes.disable')}
        </Button>
      ) : null,
  };
}

function PromoCodeRow(props: PromoCodeItemProps) {
  const parts = usePromoCodeParts(props);
  return (
    <TableRow data-testid="promo-code-row">
      <TableCell>{parts.code}</TableCell>
      <TableCell data-testid="promo-code-discount">{parts.discount}</TableCell>
      <TableCell>{parts.appliesTo}</TableCell>
      <TableCell data-testid="promo-code-uses">{parts.uses}</TableCell>
      <TableCell data-testid="promo-code-revenue">{parts.revenue}</TableCell>
      <TableCell>{parts.discountGiven}</TableCell>
      <TableCell>{parts.validUntil}</TableCell>
      <TableCell>{parts.status}</TableCell>
      <TableCell>
        {parts.holds}
        {parts.disable}
      </TableCell>
    </TableRow>
  );
}

/** A code on a phone: its code and status, then each figure named, as the table's columns name them. */
function PromoCodeCard(props: PromoCodeItemProps) {
  const translate = useTranslate();
  const parts = usePromoCodeParts(props);
  const line = (field: string, value: ReactNode, testId?: string) => (
    <Typography variant="body2" component="div">
      {translate(`resources.promo-codes.fields.${field}`)}: <span data-testid={testId}>{value}</span>
    </Typography>
  );
  return (
    <Card variant="outlined" data-testid="promo-code-card">
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'flex-start', mb: 1 }}>
          <Typography variant="subtitle1" component="h2">
            {parts.code}
          </Typography>
          {parts.status}
        </Stack>
        {line('discount', parts.discount, 'promo-code-discount')}
        {line('appliesTo', parts.appliesTo)}
        {line('uses', parts.uses, 'promo-code-uses')}
        {line('revenue', parts.revenue, 'promo-code-revenue')}
        {line('discountGiven', parts.discountGiven)}
        {line('validUntil', parts.validUntil)}
        <Box sx={{ mt: 1 }}>
          {parts.holds}
          {parts.disable}
        </Box>
      </CardContent>
    </Card>
  );
}

/**
 * A code's live holds (docs/adr/0088-promo-codes.md): the uses held for a card checkout or a crypto deposit not
 * settled yet, each with its client, payment, price and how long it still counts; and a link to the payments that
 * used the code.
 */
function PromoCodeHoldsDialog({ code, onClose }: { code: string | null; onClose: () => void }) {
  const translate = useTranslate();
  const lang = useLang();
  const adminPath = useAdminPath();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const [holds, setHolds] = useState<PromoCodeHold[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (code === null) return;
    let current = true;
    dataProvider.promoCodeHolds(code).then(
      (answer) => {
        if (current) setHolds(answer);
      },
      (failure: unknown) => {
        if (current) setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
    return () => {
      current = false;
      setHolds(null);
      setError(null);
    };
  }, [code, dataProvider]);
  const when = (iso: string) =>
    new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-US', { dateStyle: 'short', timeStyle: 'short' }).format(
      new Date(iso),
    );
  const paymentsWithCode = `${adminPath('/payments')}?filter=${encodeURIComponent(JSON.stringify({ promoCode: code }))}`;
  return (
    <Dialog open={code !== null} onClose={onClose} maxWidth="md" fullWidth data-testid="promo-code-holds-dialog">
      <DialogTitle>{translate('kupa.promo_codes.holds_title', { code: code ?? '' })}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('kupa.promo_codes.holds_hint')}
        </Typography>
        {error && <Alert severity="error">{error}</Alert>}
        {holds !== null && holds.length === 0 && (
          <Typography data-testid="promo-code-holds-empty">{translate('kupa.promo_codes.holds_empty')}</Typography>
        )}
        {holds !== null && holds.length > 0 && (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('kupa.promo_codes.hold_client')}</TableCell>
                  <TableCell>{translate('kupa.promo_codes.hold_payment')}</TableCell>
                  <TableCell>{translate('kupa.promo_codes.hold_price')}</TableCell>
                  <TableCell>{translate('kupa.promo_codes.hold_since')}</TableCell>
                  <TableCell>{translate('kupa.promo_codes.hold_until')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {holds.map((hold) => (
                  <TableRow key={hold.depositPaymentId} data-testid="promo-code-hold-row">
                    <TableCell>
                      <Link to={adminPath(`/clients/${hold.userUuid}/show`)}>
                        <Ltr>{hold.userEmail}</Ltr>
                      </Link>
                    </TableCell>
                    <TableCell>
                      <Link to={adminPath(`/payments/${hold.depositPaymentId}/show`)}>
                        <Ltr>{`#${hold.depositPaymentId}`}</Ltr>
                      </Link>
                    </TableCell>
                    <TableCell>
                      <Money amount={hold.price} />
                    </TableCell>
                    <TableCell>
                      <Ltr>{when(hold.heldSince)}</Ltr>
                    </TableCell>
                    <TableCell>
                      <Ltr>{when(hold.expiresAt)}</Ltr>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button component={Link} to={paymentsWithCode} onClick={onClose} data-testid="promo-code-payments">
          {translate('kupa.promo_codes.payments_with_code')}
        </Button>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

const USES: readonly PromoCodeUse[] = ['PURCHASE', 'RENEWAL'];

/** Midnight (the staff member's time) after a `yyyy-mm-dd` day: the first instant a code ending that day no longer applies. */
function dayAfter(day: string): Date {
  const date = new Date(`${day}T00:00:00`);
  date.setDate(date.getDate() + 1);
  return date;
}

function CreatePromoCodeDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: () => void;
}) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const { run, pending } = useCommand();
  const [code, setCode] = useState('');
  const [kind, setKind] = useState<PromoCodeDiscountKind>('PERCENT');
  const [value, setValue] = useState('');
  const [appliesTo, setAppliesTo] = useState<PromoCodeUse[]>(['PURCHASE']);
  const [maxUses, setMaxUses] = useState('');
  const [maxUsesPerClient, setMaxUsesPerClient] = useState('');
  const [validUntil, setValidUntil] = useState('');
  const [newClientsOnly, setNewClientsOnly] = useState(false);

  const submit = async () => {
    const number = Number(value);
    const request: CreatePromoCodeRequest = {
      code: code.trim(),
      discountKind: kind,
      ...(kind === 'PERCENT' ? { percent: number } : { amount: number }),
      appliesTo,
      ...(maxUses.trim() !== '' ? { maxUses: Number(maxUses) } : {}),
      ...(maxUsesPerClient.trim() !== '' ? { maxUsesPerClient: Number(maxUsesPerClient) } : {}),
      // The end is the first instant the code no longer applies: the day after the date chosen, at midnight.
      ...(validUntil !== '' ? { validUntil: dayAfter(validUntil).toISOString() } : {}),
      newClientsOnly,
    };
    const created = await run(() => dataProvider.createPromoCode(request), {
      successMessage: 'kupa.promo_codes.created',
      refresh: false,
    });
    if (created) {
      setCode('');
      setValue('');
      onCreated();
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="promo-code-create-dialog">
      <DialogTitle>{translate('kupa.promo_codes.create')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            label={translate('resources.promo-codes.fields.code')}
            value={code}
            onChange={(event) => setCode(event.target.value.toUpperCase())}
            helperText={translate('kupa.promo_codes.code_hint')}
            slotProps={{ htmlInput: { dir: 'ltr', 'data-testid': 'promo-code-code' } }}
            required
          />
          <Stack direction="row" spacing={2}>
            <TextField
              select
              label={translate('kupa.promo_codes.kind')}
              value={kind}
              onChange={(event) => setKind(event.target.value as PromoCodeDiscountKind)}
              sx={{ minWidth: 160 }}
            >
              <MenuItem value="PERCENT">{translate('kupa.promo_codes.kind_PERCENT')}</MenuItem>
              <MenuItem value="AMOUNT">{translate('kupa.promo_codes.kind_AMOUNT')}</MenuItem>
            </TextField>
            <TextField
              label={translate(kind === 'PERCENT' ? 'kupa.promo_codes.percent' : 'kupa.promo_codes.amount')}
              value={value}
              onChange={(event) => setValue(event.target.value)}
              slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr', 'data-testid': 'promo-code-value' } }}
              required
            />
          </Stack>
          <FormGroup row>
            {USES.map((use) => (
              <FormControlLabel
                key={use}
                control={
                  <Checkbox
                    checked={appliesTo.includes(use)}
                    onChange={(event) =>
                      setAppliesTo((current) =>
                        event.target.checked ? [...current, use] : current.filter((item) => item !== use),
                      )
                    }
                  />
                }
                label={translate(`kupa.promo_codes.use.${use}`)}
              />
            ))}
          </FormGroup>
          <Stack direction="row" spacing={2}>
            <TextField
              label={translate('resources.promo-codes.fields.maxUses')}
              value={maxUses}
              onChange={(event) => setMaxUses(event.target.value)}
              slotProps={{ htmlInput: { inputMode: 'numeric', dir: 'ltr' } }}
            />
            <TextField
              label={translate('resources.promo-codes.fields.maxUsesPerClient')}
              value={maxUsesPerClient}
              onChange={(event) => setMaxUsesPerClient(event.target.value)}
              slotProps={{ htmlInput: { inputMode: 'numeric', dir: 'ltr' } }}
            />
          </Stack>
          <TextField
            type="date"
            label={translate('kupa.promo_codes.valid_until')}
            value={validUntil}
            onChange={(event) => setValidUntil(event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <FormControlLabel
            control={
              <Checkbox checked={newClientsOnly} onChange={(event) => setNewClientsOnly(event.target.checked)} />
            }
            label={translate('resources.promo-codes.fields.newClientsOnly')}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          disabled={pending || code.trim() === '' || value.trim() === '' || appliesTo.length === 0}
          onClick={() => void submit()}
          data-testid="promo-code-save"
        >
          {translate('ra.action.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
