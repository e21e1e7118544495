import { type AccountStatement, API_ROUTES, type BalanceAtInstant, type Language } from '@kupa/proto';
import { api, apiDownload } from '../../../lib/api/api-client';

/** The statement's calls (ADR 0096), kept with the screen so that its chunk, not the first screen's, carries them. */
export const statementApi = {
  statement: (userUuid: string, period: { from: string; to: string }, lang: Language, signal?: AbortSignal) =>
    api.get<AccountStatement>(API_ROUTES.userStatement(userUuid), {
      query: period,
      headers: { 'Accept-Language': lang },
      signal,
    }),
  csv: (userUuid: string, period: { from: string; to: string }, lang: Language, timeZone: string) =>
    api.get<string>(API_ROUTES.userStatementCsv(userUuid), {
      query: { ...period, timeZone },
      headers: { 'Accept-Language': lang },
      text: true,
    }),
  pdf: (userUuid: string, period: { from: string; to: string }, lang: Language, timeZone: string) =>
    apiDownload(`${API_ROUTES.userStatementPdf(userUuid)}?${new URLSearchParams({ ...period, timeZone })}`, lang),
  balanceAt: (userUuid: string, at: string) =>
    api.get<BalanceAtInstant>(API_ROUTES.userBalanceAt(userUuid), { query: { at } }),
};

/** Hands a file to the browser as a download. */
export function saveFile(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the file over; a later revoke would keep the blob for the page's life.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

/**
 * Hands the CSV to the browser. `Response.text()` drops the byte order mark the server sent, and without it Excel
 * reads Hebrew as noise, so it goes back in front.
 */
export function saveCsv(text: string, fileName: string): void {
  saveFile(new Blob([`\uFEFF${text.replace(/^\uFEFF/, '')}`], { type: 'text/csv;charset=utf-8' }), fileName);
}
