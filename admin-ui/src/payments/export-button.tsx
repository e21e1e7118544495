import { formatErrorMessage, LANGUAGE_LOCALES, type Language, LIMITS } from '@kupa/proto';
import DownloadIcon from '@mui/icons-material/Download';
import { Box, Button, LinearProgress, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useListContext, useNotify, useTranslate } from 'react-admin';
import { isolateLtr } from '../shared/ltr';
import { useLang } from '../shared/use-lang';
import {
  downloadPaymentsCsv,
  type ExportProgress,
  PAYMENTS_CSV_FILE_NAME,
  saveBlob,
  toExportBody,
} from './export-payments';

type ExportState = { phase: 'idle' } | { phase: 'running' | 'done'; progress: ExportProgress };

export function formatBytes(bytes: number, lang: Language): string {
  const locale = LANGUAGE_LOCALES[lang];
  const [value, unit] =
    bytes >= 1024 * 1024
      ? [bytes / (1024 * 1024), 'megabyte']
      : bytes >= 1024
        ? [bytes / 1024, 'kilobyte']
        : [bytes, 'byte'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}

/**
 * Exports every payment that matches the list's filters through the server's streamed CSV, showing the bytes and
 * rows received while it streams. The list's total count, when exact, turns the bar into a real percentage. The
 * final count stays visible after the file is saved, so staff can check it against the list.
 */
export function PaymentsExportButton() {
  const { filterValues, sort, total } = useListContext();
  const translate = useTranslate();
  const notify = useNotify();
  const lang = useLang();
  const [state, setState] = useState<ExportState>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);

  // Leaving the page stops a running download instead of saving a file nobody is waiting for.
  useEffect(() => () => controller.current?.abort(), []);

  const start = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setState({ phase: 'running', progress: { bytes: 0, rows: 0 } });
    try {
      let last: ExportProgress = { bytes: 0, rows: 0 };
      const blob = await downloadPaymentsCsv(
        toExportBody(filterValues, sort),
        lang,
        (progress) => {
          last = progress;
          setState({ phase: 'running', progress });
        },
        abort.signal,
      );
      if (abort.signal.aborted) return;
      saveBlob(blob, PAYMENTS_CSV_FILE_NAME);
      setState({ phase: 'done', progress: last });
    } catch {
      if (abort.signal.aborted) return;
      setState({ phase: 'idle' });
      // The export has its own failure text (`error.export.failed`), whatever the server said.
      const message = formatErrorMessage('error.export.failed', lang);
      notify(message, { type: 'error', messageArgs: { _: message } });
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  };

  const cancel = () => {
    controller.current?.abort();
    setState({ phase: 'idle' });
  };

  const running = state.phase === 'running';
  const progress = state.phase === 'idle' ? null : state.progress;
  // The list's count is exact only below the search window (ADR 0010); beyond it the bar cannot know the end.
  const exactTotal = total !== undefined && total > 0 && total < LIMITS.searchWindowRows ? total : undefined;
  const percent = progress && exactTotal ? Math.min((progress.rows / exactTotal) * 100, 100) : undefined;
  const counts = progress
    ? {
        smart_count: progress.rows,
        rows: isolateLtr(progress.rows.toLocaleString(LANGUAGE_LOCALES[lang])),
        size: isolateLtr(formatBytes(progress.bytes, lang)),
      }
    : {};

  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <Button
        size="small"
        startIcon={<DownloadIcon />}
        onClick={() => void start()}
        disabled={running}
        data-testid="payments-export"
      >
        {translate('kupa.payments.export.button')}
      </Button>
      {progress ? (
        <Box
          data-testid="export-progress"
          data-state={state.phase}
          data-bytes={progress.bytes}
          data-rows={progress.rows}
          role="status"
          aria-live="polite"
          sx={{ minWidth: 180 }}
        >
          <Typography variant="caption" component="p">
            {translate(running ? 'kupa.payments.export.progress' : 'kupa.payments.export.done', counts)}
          </Typography>
          {running ? (
            <LinearProgress variant={percent === undefined ? 'indeterminate' : 'determinate'} value={percent} />
          ) : null}
        </Box>
      ) : null}
      {running ? (
        <Button size="small" onClick={cancel} data-testid="payments-export-cancel">
          {translate('ra.action.cancel')}
        </Button>
      ) : null}
    </Box>
  );
}
