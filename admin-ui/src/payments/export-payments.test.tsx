import { formatErrorMessage, LIMITS } from '@kupa/proto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ListContextProvider, type ListControllerResult } from 'react-admin';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { PaymentsExportButton } from './export-button';
import { browserTimeZone, downloadPaymentsCsv, type ExportProgress, toExportBody } from './export-payments';

const BOM = [0xef, 0xbb, 0xbf];

/** A CSV answer delivered in the given pieces, the way a streamed body arrives over the network. */
function streamedCsv(pieces: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
}

/** jsdom's Blob has no `arrayBuffer()`, so the file is read the way older browsers read one. */
function bytesOf(blob: Blob): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(Array.from(new Uint8Array(reader.result as ArrayBuffer)));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

beforeEach(() => signInAs('ADMIN'));

describe('downloadPaymentsCsv', () => {
  it('posts the filters without paging, reads the stream piece by piece and reports bytes and rows as they arrive', async () => {
    const pieces = [
      '\uFEFFpaymentId,userEmail,amount,comment\n1,dana@example.com,10.00,',
      '"two\nlines"\n2,noa@example.com,5.50,שלום\n',
      '3,omer@example.com,1.00,last',
    ];
    const { calls } = mockFetch({ 'POST /api/payments/export': () => streamedCsv(pieces) });
    const reports: ExportProgress[] = [];

    const blob = await downloadPaymentsCsv(
      toExportBody(
        { statuses: ['SUCCESS'], keyWord: 'dana', id: '7' },
        { field: 'createdAt', order: 'DESC' },
        'Asia/Jerusalem',
      ),
      'he',
      (progress) => reports.push(progress),
    );

    expect(calls[0].body).toEqual({
      sorts: [{ id: 'createdAt', desc: true }],
      keyWord: 'dana',
      id: 7,
      statuses: ['SUCCESS'],
      timeZone: 'Asia/Jerusalem',
    });
    expect(calls[0].headers.get('Authorization')).toBe('Bearer t');
    expect(calls[0].headers.get('Accept')).toBe('text/csv');
    // The file's header and labels are asked for in the console's language.
    expect(calls[0].headers.get('Accept-Language')).toBe('he');

    const sizes = pieces.map((piece) => new TextEncoder().encode(piece).length);
    expect(reports.map((report) => report.bytes)).toEqual([
      sizes[0],
      sizes[0] + sizes[1],
      sizes[0] + sizes[1] + sizes[2],
      sizes[0] + sizes[1] + sizes[2],
    ]);
    // The line break inside the quoted comment does not end a row; the last row needs no trailing line break.
    expect(reports.map((report) => report.rows)).toEqual([0, 2, 2, 3]);

    const bytes = await bytesOf(blob);
    expect(bytes.slice(0, 3)).toEqual(BOM);
    expect(bytes.slice(3, 6)).not.toEqual(BOM);
    expect(blob.type).toBe('text/csv;charset=utf-8');
    expect(new TextDecoder().decode(new Uint8Array(bytes))).toBe(pieces.join('').slice(1));
  });

  it('adds the BOM when the server sent none, so Excel still reads Hebrew correctly', async () => {
    mockFetch({ 'POST /api/payments/export': () => streamedCsv(['paymentId,comment\n', '1,שלום\n']) });
    const blob = await downloadPaymentsCsv(toExportBody({}), 'en', () => undefined);
    const bytes = await bytesOf(blob);
    expect(bytes.slice(0, 3)).toEqual(BOM);
    expect(new TextDecoder().decode(new Uint8Array(bytes.slice(3)))).toBe('paymentId,comment\n1,שלום\n');
  });

  it('rejects when the server refuses the export', async () => {
    mockFetch({
      'POST /api/payments/export': () =>
        json(403, { status: 403, error: 'error.access.forbidden', message: 'Forbidden' }),
    });
    await expect(downloadPaymentsCsv(toExportBody({}), 'en', () => undefined)).rejects.toMatchObject({
      status: 403,
    });
  });
});

function renderButton(total = 3) {
  const list = {
    filterValues: { statuses: ['PENDING'] },
    sort: { field: 'amount', order: 'ASC' },
    total,
  } as unknown as ListControllerResult;
  return renderInAdmin(
    <ListContextProvider value={list}>
      <PaymentsExportButton />
    </ListContextProvider>,
    { lang: 'en', notifications: true },
  );
}

describe('the time zone the export asks for', () => {
  it("is the browser's IANA zone, and none (the file is then in UTC) when the browser reports something else", () => {
    const resolved = (timeZone: string) =>
      vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({
        ...new Intl.DateTimeFormat().resolvedOptions(),
        timeZone,
      });
    resolved('Asia/Jerusalem');
    expect(browserTimeZone()).toBe('Asia/Jerusalem');
    expect(toExportBody({})).toEqual({ sorts: [], timeZone: 'Asia/Jerusalem' });
    vi.restoreAllMocks();
    resolved('EST5EDT');
    expect(browserTimeZone()).toBeUndefined();
    expect(toExportBody({})).toEqual({ sorts: [] });
  });
});

describe('the payments export button', () => {
  it('shows the rows received while streaming and saves payments.csv', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const encoder = new TextEncoder();
    const { calls } = mockFetch({
      'POST /api/payments/export': () =>
        new Response(
          new ReadableStream<Uint8Array>({
            async start(controller) {
              controller.enqueue(encoder.encode('\uFEFFpaymentId,amount\n1,10.00\n2,5.00\n'));
              await gate;
              controller.enqueue(encoder.encode('3,1.00\n'));
              controller.close();
            },
          }),
          { status: 200 },
        ),
    });
    const createObjectURL = vi.fn((blob: Blob) => {
      expect(blob.size).toBeGreaterThan(0);
      return 'blob:payments';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const user = userEvent.setup();
    renderButton();

    await user.click(screen.getByTestId('payments-export'));

    const progress = await screen.findByTestId('export-progress');
    await waitFor(() => expect(progress).toHaveAttribute('data-rows', '2'));
    expect(progress).toHaveAttribute('data-state', 'running');
    // Numbers and sizes sit in left-to-right isolates so they keep their order inside Hebrew sentences.
    expect(progress).toHaveTextContent('Receiving: \u20662\u2069 rows');
    // Two of the list's three rows.
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '67');
    expect(screen.getByTestId('payments-export')).toBeDisabled();

    release();
    await waitFor(() => expect(screen.getByTestId('export-progress')).toHaveAttribute('data-state', 'done'));
    expect(screen.getByTestId('export-progress')).toHaveTextContent('Saved payments.csv: \u20663\u2069 rows');
    expect(clicked).toHaveLength(1);
    expect(clicked[0].download).toBe('payments.csv');
    expect(clicked[0].href).toBe('blob:payments');
    expect(calls[0].body).toEqual({
      sorts: [{ id: 'amount', desc: false }],
      statuses: ['PENDING'],
      ...(browserTimeZone() ? { timeZone: browserTimeZone() } : {}),
    });
    expect(calls[0].headers.get('Accept-Language')).toBe('en');
  });

  it('shows no percentage when the list counted only up to the search window', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    mockFetch({
      'POST /api/payments/export': () =>
        new Response(
          new ReadableStream<Uint8Array>({
            async start(controller) {
              controller.enqueue(new TextEncoder().encode('\uFEFFpaymentId,amount\n1,10.00\n'));
              await gate;
              controller.close();
            },
          }),
          { status: 200 },
        ),
    });
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:payments'), revokeObjectURL: vi.fn() }),
    );
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderButton(LIMITS.searchWindowRows);

    await user.click(screen.getByTestId('payments-export'));

    await waitFor(() => expect(screen.getByTestId('export-progress')).toHaveAttribute('data-rows', '1'));
    expect(screen.getByRole('progressbar')).not.toHaveAttribute('aria-valuenow');
    release();
    await waitFor(() => expect(screen.getByTestId('export-progress')).toHaveAttribute('data-state', 'done'));
  });

  it('shows the catalogue export failure message when the export fails', async () => {
    mockFetch({ 'POST /api/payments/export': () => json(500, { status: 500, error: 'boom', message: 'Disk full' }) });
    const user = userEvent.setup();
    renderButton();

    await user.click(screen.getByTestId('payments-export'));

    expect(await screen.findByText(formatErrorMessage('error.export.failed', 'en'))).toBeVisible();
    expect(screen.queryByText('Disk full')).toBeNull();
    expect(screen.queryByTestId('export-progress')).toBeNull();
  });
});
