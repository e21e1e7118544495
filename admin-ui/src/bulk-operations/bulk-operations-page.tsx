import {
  BULK_ACTIONS,
  BULK_LIMITS,
  type BulkAction,
  type BulkBatch,
  type BulkPreview,
  CUSTOMER_ROLES,
  PLAN_DURATIONS_MONTHS,
  SUBSCRIPTION_TYPES,
} from '@kupa/proto';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Title, useTranslate } from 'react-admin';
import { ActivityLink } from '../shared/activity-link';
import { Ltr } from '../shared/ltr';
import { clientFilters, compact, subscriptionFilters } from '../providers/data-provider';
import { useEnumChoices } from '../shared/enum-choices';
import { bulkOperationsApi, type BulkRequest } from './bulk-operations-api';

/** How often a running batch's progress is asked for. */
export const POLL_MS = 1000;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The bulk form: the action, what it needs, and the staff lists' filter fields under their own names. */
export interface BulkForm {
  action: BulkAction;
  keyWord: string;
  status: string;
  reason: string;
  publicNote: string;
  amount: string;
  days: string;
  /** The clients list's further filters: a role, the registration date range. */
  roles?: string;
  registrationDateFrom?: string;
  registrationDateTo?: string;
  /** The subscriptions list's further filters: type, duration, date ranges, price range. */
  types?: string;
  durationsInMonths?: string;
  startDateFrom?: string;
  startDateTo?: string;
  endDateFrom?: string;
  endDateTo?: string;
  priceFrom?: string;
  priceTo?: string;
}

const CLIENT_FILTER_FIELDS = ['keyWord', 'roles', 'registrationDateFrom', 'registrationDateTo'] as const;
const SUBSCRIPTION_FILTER_FIELDS = [
  'types',
  'durationsInMonths',
  'endDateFrom',
  'endDateTo',
  'startDateFrom',
  'startDateTo',
  'priceFrom',
  'priceTo',
] as const;

/** The form's filled fields among `fields`, as the list's filter form holds them (a choice as a one-item list). */
function chosen(form: BulkForm, fields: readonly (keyof BulkForm)[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const value = (form[field] ?? '').trim();
    if (value) values[field] = ['roles', 'types', 'durationsInMonths'].includes(field) ? [value] : value;
  }
  return values;
}

/**
 * The request the form describes. The filters go through the staff lists' own translation (`clientFilters`,
 * `subscriptionFilters`), so the bulk page selects what those lists would show. No filter at all sends none (every
 * active client, or subscription for add days); "All active" beside another filter sends the ACTIVE status.
 */
export function requestOf(form: BulkForm): BulkRequest {
  const request: BulkRequest = { action: form.action, reason: form.reason.trim() };
  const status = form.status ? [form.status] : ['ACTIVE'];
  if (form.action === 'ADD_DAYS') {
    const values = chosen(form, SUBSCRIPTION_FILTER_FIELDS);
    if (form.status || Object.keys(values).length > 0)
      request.subscriptionFilter = compact({ ...subscriptionFilters({ ...values, statuses: status }) });
    request.days = Number(form.days);
  } else {
    const values = chosen(form, CLIENT_FILTER_FIELDS);
    if (form.status || Object.keys(values).length > 0) {
      const filter = compact({ ...clientFilters({ ...values, statuses: status }) });
      // The clients list shows clients and ambassadors when no role is chosen; the selection needs no role then.
      if (!values.roles) delete filter.roles;
      request.filter = filter;
    }
    if (form.action === 'GOODWILL_CREDIT') request.amount = Number(form.amount);
  }
  if (form.publicNote.trim()) request.publicNote = form.publicNote.trim();
  return request;
}

const CLIENT_STATUSES = ['ACTIVE', 'BLOCKED'] as const;
const SUBSCRIPTION_STATUSES = ['ACTIVE', 'GRACE', 'EXPIRED'] as const;
const DURATIONS = PLAN_DURATIONS_MONTHS.map(String);
/** How long the filters rest before the count is asked for again. */
export const PREVIEW_DEBOUNCE_MS = 400;

/** A choice of one of `choices`, or any (the empty value, shown rather than hidden behind the label). */
function ChoiceField({
  label,
  value,
  onChange,
  choices,
  anyLabel,
  testId,
}: {
  label: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  choices: Array<{ id: string; name: string }>;
  anyLabel: string;
  testId: string;
}) {
  return (
    <TextField
      select
      sx={{ minWidth: 180 }}
      label={label}
      value={value}
      onChange={onChange}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true }, htmlInput: { 'data-testid': testId } }}
    >
      <MenuItem value="">{anyLabel}</MenuItem>
      {choices.map((choice) => (
        <MenuItem key={choice.id} value={choice.id}>
          {choice.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * Bulk operations (docs/product.md, Bulk operations): choose an action and its targets, preview how many and the first
 * ten, confirm the count, follow the batch's progress, download its results; below, the past batches.
 */
export function BulkOperationsPage() {
  const translate = useTranslate();
  const [form, setForm] = useState<BulkForm>({
    action: 'ADD_DAYS',
    keyWord: '',
    status: '',
    reason: '',
    publicNote: '',
    amount: '',
    days: '1',
  });
  const roleChoices = useEnumChoices('userRole', CUSTOMER_ROLES);
  const typeChoices = useEnumChoices('subscriptionType', SUBSCRIPTION_TYPES);
  const durationChoices = useEnumChoices('planDuration', DURATIONS);
  const [preview, setPreview] = useState<BulkPreview | null>(null);
  const [batch, setBatch] = useState<BulkBatch | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [past, setPast] = useState<BulkBatch[]>([]);
  const [key, setKey] = useState(() => crypto.randomUUID());

  const loadPast = useCallback(() => {
    bulkOperationsApi.list().then(
      (list) => setPast(list.items),
      (failure: unknown) => setError(messageOf(failure)),
    );
  }, []);
  useEffect(loadPast, [loadPast]);

  useEffect(() => {
    if (!batch || batch.status !== 'RUNNING') return;
    const timer = setTimeout(() => {
      bulkOperationsApi.get(batch.id).then(
        (next) => {
          setBatch(next);
          if (next.status === 'COMPLETED') loadPast();
        },
        (failure: unknown) => setError(messageOf(failure)),
      );
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [batch, loadPast]);

  const change = (field: keyof BulkForm) => (event: { target: { value: string } }) => {
    setForm({ ...form, [field]: event.target.value, ...(field === 'action' ? { status: '' } : {}) });
  };
  // Only the latest preview is shown: an answer to filters since changed is dropped.
  const previewRound = useRef(0);
  const doPreview = useCallback(() => {
    setError(null);
    const round = (previewRound.current += 1);
    bulkOperationsApi.preview(requestOf(form)).then(
      (answer) => {
        if (round === previewRound.current) setPreview(answer);
      },
      (failure: unknown) => {
        if (round === previewRound.current) setError(messageOf(failure));
      },
    );
  }, [form]);
  // The count follows the filters: asked for again once they rest, never for the reason or the note alone.
  const selectionKey = JSON.stringify({ ...requestOf(form), reason: '', publicNote: '', days: 0, amount: 0 });
  const latestPreview = useRef(doPreview);
  latestPreview.current = doPreview;
  useEffect(() => {
    setPreview(null);
    const timer = setTimeout(() => latestPreview.current(), PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [selectionKey]);
  const confirm = () => {
    setError(null);
    bulkOperationsApi.start(requestOf(form), key).then(
      (started) => {
        setBatch(started);
        setPreview(null);
        setKey(crypto.randomUUID());
      },
      (failure: unknown) => setError(messageOf(failure)),
    );
  };
  const statuses = form.action === 'ADD_DAYS' ? SUBSCRIPTION_STATUSES : CLIENT_STATUSES;
  const settled = batch ? batch.doneCount + batch.failedCount : 0;

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title={translate('kupa.bulk.title')} />
      <Stack spacing={2}>
        <Card variant="outlined">
          <CardContent>
            <Stack spacing={2}>
              <TextField
                select
                label={translate('kupa.bulk.action')}
                value={form.action}
                onChange={change('action')}
                slotProps={{ htmlInput: { 'data-testid': 'bulk-action' } }}
              >
                {BULK_ACTIONS.map((action) => (
                  <MenuItem key={action} value={action}>
                    {translate(`kupa.bulk.actions.${action}`)}
                  </MenuItem>
                ))}
              </TextField>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {form.action !== 'ADD_DAYS' && (
                  <TextField
                    label={translate('kupa.bulk.keyWord')}
                    value={form.keyWord}
                    onChange={change('keyWord')}
                    slotProps={{ htmlInput: { 'data-testid': 'bulk-keyword' } }}
                  />
                )}
                <TextField
                  select
                  sx={{ minWidth: 200 }}
                  label={translate('kupa.bulk.status')}
                  value={form.status}
                  onChange={change('status')}
                  // "All active" is the empty value: shown, not hidden behind the label.
                  slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                >
                  <MenuItem value="">{translate('kupa.bulk.allActive')}</MenuItem>
                  {statuses.map((status) => (
                    <MenuItem key={status} value={status}>
                      {translate(`kupa.bulk.statuses.${status}`)}
                    </MenuItem>
                  ))}
                </TextField>
                {form.action === 'ADD_DAYS' ? (
                  <>
                    <ChoiceField
                      label={translate('resources.subscriptions.fields.types')}
                      value={form.types ?? ''}
                      onChange={change('types')}
                      choices={typeChoices}
                      anyLabel={translate('kupa.bulk.any')}
                      testId="bulk-types"
                    />
                    <ChoiceField
                      label={translate('resources.subscriptions.fields.durationsInMonths')}
                      value={form.durationsInMonths ?? ''}
                      onChange={change('durationsInMonths')}
                      choices={durationChoices}
                      anyLabel={translate('kupa.bulk.any')}
                      testId="bulk-durations"
                    />
                  </>
                ) : (
                  <ChoiceField
                    label={translate('resources.clients.fields.roles')}
                    value={form.roles ?? ''}
                    onChange={change('roles')}
                    choices={roleChoices}
                    anyLabel={translate('kupa.bulk.any')}
                    testId="bulk-roles"
                  />
                )}
              </Stack>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
                {(form.action === 'ADD_DAYS'
                  ? (['endDateFrom', 'endDateTo', 'startDateFrom', 'startDateTo'] as const)
                  : (['registrationDateFrom', 'registrationDateTo'] as const)
                ).map((field) => (
                  <TextField
                    key={field}
                    type="date"
                    label={translate(
                      `resources.${form.action === 'ADD_DAYS' ? 'subscriptions' : 'clients'}.fields.${field}`,
                    )}
                    value={form[field] ?? ''}
                    onChange={change(field)}
                    // Four to a row on a wide screen (a date or a price needs no full line); on a phone, the column's own height.
                    sx={{ flex: { xs: '0 0 auto', sm: '1 1 180px' } }}
                    slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `bulk-${field}` } }}
                  />
                ))}
                {form.action === 'ADD_DAYS' &&
                  (['priceFrom', 'priceTo'] as const).map((field) => (
                    <TextField
                      key={field}
                      label={translate(`resources.subscriptions.fields.${field}`)}
                      value={form[field] ?? ''}
                      onChange={change(field)}
                      sx={{ flex: { xs: '0 0 auto', sm: '1 1 180px' } }}
                      slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr', 'data-testid': `bulk-${field}` } }}
                    />
                  ))}
              </Stack>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {form.action === 'ADD_DAYS' && (
                  <TextField
                    type="number"
                    label={translate('kupa.bulk.days')}
                    value={form.days}
                    onChange={change('days')}
                    slotProps={{ htmlInput: { min: 1, max: BULK_LIMITS.maxDays, 'data-testid': 'bulk-days' } }}
                  />
                )}
                {form.action === 'GOODWILL_CREDIT' && (
                  <TextField
                    type="number"
                    label={translate('kupa.bulk.amount')}
                    value={form.amount}
                    onChange={change('amount')}
                    slotProps={{ htmlInput: { min: 0.01, step: 0.01, 'data-testid': 'bulk-amount' } }}
                  />
                )}
                <TextField
                  required
                  sx={{ flexGrow: 1 }}
                  label={translate('kupa.bulk.reason')}
                  value={form.reason}
                  onChange={change('reason')}
                  slotProps={{ htmlInput: { 'data-testid': 'bulk-reason' } }}
                />
                <TextField
                  sx={{ flexGrow: 1 }}
                  label={translate('kupa.bulk.publicNote')}
                  helperText={translate('kupa.bulk.publicNoteHint')}
                  value={form.publicNote}
                  onChange={change('publicNote')}
                  slotProps={{ htmlInput: { 'data-testid': 'bulk-public-note' } }}
                />
              </Stack>
              <Box>
                <Button variant="outlined" onClick={doPreview} data-testid="bulk-preview">
                  {translate('kupa.bulk.preview')}
                </Button>
              </Box>
            </Stack>
          </CardContent>
        </Card>
        {error && <Alert severity="error">{error}</Alert>}
        {preview && (
          <Card variant="outlined" data-testid="bulk-preview-result">
            <CardContent>
              <Typography variant="subtitle1" component="h2">
                {translate('kupa.bulk.matches', { smart_count: preview.total })}
              </Typography>
              <Box component="ul" sx={{ my: 1 }}>
                {preview.sample.map((target) => (
                  <li key={target.id}>
                    <Ltr>{target.label}</Ltr>
                  </li>
                ))}
              </Box>
              {preview.total > 0 && (
                <Button variant="contained" color="warning" onClick={confirm} data-testid="bulk-confirm">
                  {translate('kupa.bulk.confirm', {
                    action: translate(`kupa.bulk.actions.${preview.action}`),
                    smart_count: preview.total,
                  })}
                </Button>
              )}
            </CardContent>
          </Card>
        )}
        {batch && (
          <Card variant="outlined" data-testid="bulk-progress">
            <CardContent>
              <Typography variant="subtitle1" component="h2">
                {translate(`kupa.bulk.batchStatus.${batch.status}`)}
              </Typography>
              {/* A bar while it runs; once completed the counts say it all, and nothing on the screen still moves. */}
              {batch.status === 'RUNNING' && (
                <LinearProgress
                  variant="determinate"
                  value={batch.targetCount === 0 ? 100 : (100 * settled) / batch.targetCount}
                  sx={{ my: 1 }}
                />
              )}
              <Typography variant="body2" data-testid="bulk-counts">
                {translate('kupa.bulk.counts', {
                  done: batch.doneCount,
                  failed: batch.failedCount,
                  total: batch.targetCount,
                })}
              </Typography>
              {batch.status === 'COMPLETED' && (
                <Button size="small" onClick={() => void bulkOperationsApi.downloadResults(batch.id)}>
                  {translate('kupa.bulk.csv')}
                </Button>
              )}
              <ActivityLink id={batch.id} testId="bulk-activity" />
            </CardContent>
          </Card>
        )}
        <Typography variant="h6" component="h2">
          {translate('kupa.bulk.past')}
        </Typography>
        {past.length === 0 ? (
          <Typography color="text.secondary">{translate('kupa.bulk.empty')}</Typography>
        ) : (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" data-testid="bulk-past">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('kupa.bulk.action')}</TableCell>
                  <TableCell>{translate('kupa.bulk.reason')}</TableCell>
                  <TableCell>{translate('kupa.bulk.progress')}</TableCell>
                  <TableCell>{translate('kupa.bulk.startedAt')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {past.map((one) => (
                  <TableRow key={one.id} data-testid={`bulk-batch-${one.id}`}>
                    <TableCell>{translate(`kupa.bulk.actions.${one.action}`)}</TableCell>
                    <TableCell>{one.reason}</TableCell>
                    <TableCell>
                      {translate('kupa.bulk.counts', {
                        done: one.doneCount,
                        failed: one.failedCount,
                        total: one.targetCount,
                      })}
                    </TableCell>
                    <TableCell>
                      <Ltr>{new Date(one.startedAt).toLocaleString()}</Ltr>
                    </TableCell>
                    <TableCell>
                      <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
                        <Button size="small" onClick={() => void bulkOperationsApi.downloadResults(one.id)}>
                          {translate('kupa.bulk.csv')}
                        </Button>
                        <ActivityLink id={one.id} testId="bulk-past-activity" />
                      </Stack>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </Stack>
    </Box>
  );
}
