import { type Language, type Receipt } from '@kupa/proto';
import {
  receiptDisclaimer,
  receiptKindText,
  receiptLines,
  receiptTaxIdText,
  receiptTitle,
} from '@kupa/proto/dist/receipt-lines';
import type { OperatorDetails } from '../../../platform/config';
import { leftToRight, type PdfDocumentSpec, renderPdf } from '../../../platform/pdf';

/** The operator's details as the footer of every page prints them: name, address, tax id, one line each. */
export function operatorFooter(operator: OperatorDetails, lang: Language): string[] {
  return [
    operator.name,
    ...(operator.address ? [operator.address] : []),
    ...(operator.taxId ? [receiptTaxIdText(operator.taxId, lang)] : []),
  ];
}

/** A receipt as a document: the lines the portal shows too, in the client's language, then the disclaimer. */
export function receiptDocument(receipt: Receipt, lang: Language, operator: OperatorDetails): PdfDocumentSpec {
  return {
    direction: lang === 'he' ? 'rtl' : 'ltr',
    language: lang,
    title: receiptTitle(receipt.number, lang),
    subtitle: receiptKindText(receipt.kind, lang),
    author: operator.name,
    blocks: [
      {
        kind: 'keyValues',
        rows: receiptLines(receipt, lang).map(
          (line) => [line.label, line.leftToRight ? leftToRight(line.value) : line.value] as const,
        ),
      },
      { kind: 'paragraph', text: receiptDisclaimer(lang) },
    ],
    footer: operatorFooter(operator, lang),
  };
}

export function receiptPdf(receipt: Receipt, lang: Language, operator: OperatorDetails): Promise<Buffer> {
  return renderPdf(receiptDocument(receipt, lang, operator), new Date(receipt.issuedAt));
}
