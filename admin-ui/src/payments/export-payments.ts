import { API_ROUTES, checkTimeZone, type Language, type PaymentExportRequest } from '@kupa/proto';
import { type SortPayload } from 'react-admin';
import { toSearchBody } from '../providers/data-provider';
import { apiErrorOf, fetchWithSession } from '../providers/http-client';

export const PAYMENTS_CSV_FILE_NAME = 'payments.csv';

/** The UTF-8 byte order mark: without it Excel reads the file in a legacy code page and Hebrew turns to noise. */
const UTF8_BOM = Uint8Array.of(0xef, 0xbb, 0xbf);
const NEWLINE = 0x0a;
const QUOTE = 0x22;

export interface ExportProgress {
  /** Bytes of the body received so far. */
  bytes: number;
  /** Complete data rows received so far, the header line not counted. */
  rows: number;
}

/**
 * The browser's IANA time zone when it is one the API takes (`checkTimeZone`), so that finance reads the file's
 * date-times in their own wall-clock time; otherwise none, and the file is written in UTC. Either way its headers
 * name the zone.
 */
export function browserTimeZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return typeof zone === 'string' && checkTimeZone(zone) === null ? zone : undefined;
}

/**
 * What the export asks for: the list's filters and sort, without paging, since the export covers every match, and
 * the time zone the file's date-times are written in.
 */
export function toExportBody(
  filter: Record<string, unknown>,
  sort?: SortPayload,
  timeZone: string | undefined = browserTimeZone(),
): PaymentExportRequest {
  const { page: _page, size: _size, ...body } = toSearchBody('payments', { filter, sort });
  return timeZone ? { ...body, timeZone } : body;
}

/**
 * Counts CSV records in a stream of bytes. A line break inside a quoted cell (a comment may hold one) does not end
 * a record, so the counter remembers across chunks whether it is inside quotes; an escaped quote (`""`) flips the
 * state twice and so leaves it unchanged. UTF-8 never uses these two byte values inside a multi-byte character.
 */
class CsvRecordCounter {
  private inQuotes = false;
  private lastByte: number | undefined;
  records = 0;

  add(chunk: Uint8Array): void {
    for (const byte of chunk) {
      if (byte === QUOTE) this.inQuotes = !this.inQuotes;
      else if (byte === NEWLINE && !this.inQuotes) this.records += 1;
    }
    if (chunk.length > 0) this.lastByte = chunk[chunk.length - 1];
  }

  /** Records including a last one that has no line break after it. */
  get total(): number {
    return this.records + (this.lastByte !== undefined && this.lastByte !== NEWLINE ? 1 : 0);
  }
}

function startsWithBom(chunks: readonly Uint8Array[]): boolean {
  const head: number[] = [];
  for (const chunk of chunks) {
    for (const byte of chunk) {
      head.push(byte);
      if (head.length === UTF8_BOM.length) return head.every((value, index) => value === UTF8_BOM[index]);
    }
  }
  return false;
}

async function* chunksOf(response: Response): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  if (!response.body) {
    yield new Uint8Array(await response.arrayBuffer());
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value) yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Downloads the server-side CSV export of the payments that match the list's filters (docs/api.md, CSV export:
 * streamed, every matching row, UTF-8 with a BOM). react-admin's own exporter is not used: it stops at 1000 rows and
 * writes no BOM. The file is written in `language` (docs/api.md, CSV export). The body is read chunk by chunk so that the screen can show how much has arrived; the file is
 * assembled in a Blob, which the browser keeps off the JavaScript heap.
 */
export async function downloadPaymentsCsv(
  request: PaymentExportRequest,
  language: Language,
  onProgress: (progress: ExportProgress) => void,
  signal?: AbortSignal,
): Promise<Blob> {
  const { response, refreshAttempted } = await fetchWithSession(API_ROUTES.paymentsExport, {
    method: 'POST',
    // The file's header and labels follow the console's language, not the browser's own preferences.
    headers: { Accept: 'text/csv', 'Accept-Language': language },
    body: JSON.stringify(request),
    signal,
  });
  if (!response.ok) throw await apiErrorOf(response, refreshAttempted);

  const chunks: Uint8Array<ArrayBuffer>[] = [];
  const counter = new CsvRecordCounter();
  let bytes = 0;
  for await (const chunk of chunksOf(response)) {
    chunks.push(chunk);
    bytes += chunk.length;
    counter.add(chunk);
    onProgress({ bytes, rows: Math.max(counter.records - 1, 0) });
  }
  onProgress({ bytes, rows: Math.max(counter.total - 1, 0) });

  // The server writes the BOM; a file without one still gets it here, so Excel never sees a file that lacks it.
  const parts: BlobPart[] = startsWithBom(chunks) ? chunks : [UTF8_BOM, ...chunks];
  return new Blob(parts, { type: 'text/csv;charset=utf-8' });
}

/** How long the object URL outlives the click: the browser must have started reading it before it is revoked. */
const OBJECT_URL_LIFETIME_MS = 10_000;

/** Hands a Blob to the browser as a file download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.style.display = 'none';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_LIFETIME_MS);
}
