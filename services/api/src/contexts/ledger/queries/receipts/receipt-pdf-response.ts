import { ApiOkResponse } from '@nestjs/swagger';
import { type Language, LANGUAGES, type Receipt } from '@kupa/proto';
import type { Response } from 'express';
import type { OperatorDetails } from '../../../../platform/config';
import { receiptPdf } from '../../infrastructure/receipt-pdf';

export const ApiReceiptPdfResponse = (): MethodDecorator =>
  ApiOkResponse({
    description: 'The receipt as a PDF file, in the language of Accept-Language (else the client’s own)',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
    headers: {
      'Content-Disposition': {
        description: 'attachment; filename="receipt-{number}.pdf"',
        required: true,
        schema: { type: 'string' },
      },
      'Cache-Control': { description: 'no-store', required: true, schema: { type: 'string' } },
      'Content-Language': {
        description: "The file's language",
        required: true,
        schema: { type: 'string', enum: [...LANGUAGES] },
      },
      Vary: { description: 'Accept-Language', required: true, schema: { type: 'string' } },
    },
  });

/** Sends a receipt as a PDF download: the one answer both the client's and the staff's routes give. */
export async function sendReceiptPdf(
  response: Response,
  receipt: Receipt,
  language: Language,
  operator: OperatorDetails,
): Promise<void> {
  const pdf = await receiptPdf(receipt, language, operator);
  response.status(200);
  response.setHeader('Content-Type', 'application/pdf');
  response.setHeader('Content-Disposition', `attachment; filename="receipt-${receipt.number}.pdf"`);
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Content-Language', language);
  response.setHeader('Vary', 'Accept-Language');
  response.end(pdf);
}
