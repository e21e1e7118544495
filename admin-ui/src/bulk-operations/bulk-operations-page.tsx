import { BULK_ACTIONS, BULK_LIMITS, type BulkAction, type BulkBatch, type BulkPreview } from '@kupa/proto';
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
import { useCallback, useEffect, useState } from 'react';
import { Title, useTranslate } from 'react-admin';
import { Ltr } from '../shared/ltr';
import { bulkOperationsApi, type BulkRequest } from './bulk-operations-api';

/** How often a running batch's progress is asked for. */
export const POLL_MS = 1000;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The request the form describes; an empty filter means every active client (or subscription, for add days). */
export function requestOf(form: {
  action: BulkAction;
  keyWord: string;
  status: string;
  reason: string;
  publicNote: string;
  amount: string;
  days: string;
}): BulkRequest {
  const request: BulkRequest = { action: form.action, reason: form.reason.trim() };
  if (form.action === 'ADD_DAYS') {
    if (form.status) request.subscriptionFilter = { statuses: [form.status] };
    request.days = Number(form.days);
  } else {
    const filter: Record<string, unknown> = {};
    if (form.keyWord.trim()) filter.keyWord = form.keyWord.trim();
    if (form.status) filter.statuses = [form.status];
    if (Object.keys(filter).length > 0) request.filter = filter;
    if (form.action === 'GOODWILL_CREDIT') request.amount = Number(form.amount);
  }
  if (form.publicNote.trim()) request.publicNote = form.publicNote.trim();
  return request;
}

const CLIENT_STATUSES = ['ACTIVE', 'BLOCKED'] as const;
const SUBSCRIPTION_STATUSES = ['ACTIVE', 'GRACE', 'EXPIRED'] as const;

/**
 * Bulk operations (docs/product.md, Bulk operations): choose an action and its targets, preview how many and the first
 * ten, confirm the count, follow the batch's progress, download its results; below, the past batches.
 */
export function BulkOperationsPage() {
  const translate = useTranslate();
  const [form, setForm] = useState({
    action: 'ADD_DAYS' as BulkAction,
    keyWord: '',
    status: '',
    reason: '',
    publicNote: '',
    amount: '',
    days: '1',
  });
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

  const change = (field: keyof typeof form) => (event: { target: { value: string } }) => {
    setForm({ ...form, [field]: event.target.value, ...(field === 'action' ? { status: '' } : {}) });
    setPreview(null);
  };
  const doPreview = () => {
    setError(null);
    bulkOperationsApi.preview(requestOf(form)).then(setPreview, (failure: unknown) => setError(messageOf(failure)));
  };
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
              <LinearProgress
                variant="determinate"
                value={batch.targetCount === 0 ? 100 : (100 * settled) / batch.targetCount}
                sx={{ my: 1 }}
              />
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
                      <Button size="small" onClick={() => void bulkOperationsApi.downloadResults(one.id)}>
                        {translate('kupa.bulk.csv')}
                      </Button>
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
