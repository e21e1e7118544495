import { API_ROUTES, formatDollarsForIsolate, type Receipt, type ReceiptList, type User } from '@kupa/proto';
import { receiptKindText } from '@kupa/proto/receipt-lines';
import { Alert, Box, Button, CircularProgress, List, ListItem, ListItemText, Stack } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useCallback, useEffect, useState } from 'react';
import { type RaRecord, useRecordContext, useTranslate } from 'react-admin';
import { apiErrorOf, fetchWithSession, httpClient } from '../providers/http-client';
import { EmptyState } from '../shared/empty-state';
import { useLang } from '../shared/use-lang';

type LoadState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; receipts: Receipt[] };

/** A receipt's PDF in the console's language, fetched with the staff session and handed to the browser. */
async function downloadReceipt(userUuid: string, number: number, lang: string): Promise<void> {
  const { response, refreshAttempted } = await fetchWithSession(API_ROUTES.userReceiptPdf(userUuid, number), {
    headers: { 'Accept-Language': lang },
  });
  if (!response.ok) throw await apiErrorOf(response, refreshAttempted);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `receipt-${number}.pdf`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The client's receipts (docs/product.md, Receipts; ADR 0097): number, kind, package, date and amount, each with its
 * PDF. Admins and managers read them.
 */
export function ReceiptsTab() {
  const record = useRecordContext<User & RaRecord>();
  const translate = useTranslate();
  const lang = useLang();
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [downloadFailed, setDownloadFailed] = useState(false);
  const userUuid = record?.userUuid;
  const load = useCallback(async () => {
    if (!userUuid) return;
    try {
      const { json } = await httpClient<ReceiptList>(API_ROUTES.userReceipts(userUuid));
      setState({ status: 'ready', receipts: json.items });
    } catch {
      setState({ status: 'failed' });
    }
  }, [userUuid]);
  useEffect(() => {
    void load();
  }, [load]);
  if (!record || !userUuid) return null;
  if (state.status === 'loading') return <CircularProgress size={24} />;
  if (state.status === 'failed') return <Alert severity="error">{translate('kupa.clients.receipts.failed')}</Alert>;
  if (state.status === 'ready' && state.receipts.length === 0)
    return <EmptyState testId="client-receipts-empty" title={translate('kupa.clients.receipts.empty')} />;
  const language = lang === 'en' ? 'en' : 'he';
  return (
    <Box data-testid="client-receipts">
      {downloadFailed ? <Alert severity="error">{translate('kupa.clients.receipts.download_failed')}</Alert> : null}
      <List>
        {state.receipts.map((receipt) => (
          <ListItem
            key={receipt.number}
            divider
            data-testid="client-receipt"
            sx={{ alignItems: { xs: 'stretch', sm: 'center' }, flexDirection: { xs: 'column', sm: 'row' }, gap: 1 }}
          >
            <ListItemText
              primary={translate('kupa.clients.receipts.title', { number: receipt.number })}
              secondary={
                <>
                  {receiptKindText(receipt.kind, language)}
                  {receipt.planName ? (
                    <>
                      {' · '}
                      <bdi>{receipt.planName}</bdi>
                    </>
                  ) : null}
                  {' · '}
                  {new Date(receipt.issuedAt).toLocaleString(language === 'he' ? 'he-IL' : 'en-GB', {
                    dateStyle: 'medium',
                    timeStyle: 'short',
                  })}
                </>
              }
            />
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Box component="span" sx={{ fontWeight: 500 }}>
                <bdi dir="ltr">{formatDollarsForIsolate(receipt.amount, language)}</bdi>
              </Box>
              <Button
                size="small"
                startIcon={<DownloadIcon />}
                data-testid="client-receipt-download"
                onClick={() => {
                  setDownloadFailed(false);
                  downloadReceipt(userUuid, receipt.number, language).catch(() => setDownloadFailed(true));
                }}
              >
                {translate('kupa.clients.receipts.download')}
              </Button>
            </Stack>
          </ListItem>
        ))}
      </List>
    </Box>
  );
}
