export { type PdfBlock, type PdfColumn, type PdfDocumentSpec, renderPdf } from './pdf-document';
export { leftToRight, type TextDirection, visualOrder } from './bidi-text';
