import { receiptsApi } from './receipts-query';

/** Fetches a receipt's PDF with the session's token and hands it to the browser as a download. */
export async function downloadReceiptPdf(number: number, language: string): Promise<void> {
  const pdf = await receiptsApi.pdf(number, language);
  const url = URL.createObjectURL(pdf);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = `receipt-${number}.pdf`;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the file over; a later revoke would keep the blob for the page's life.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
