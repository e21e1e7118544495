import type { Bilingual } from '@kupa/proto';

/**
 * The statement screen's words (ADR 0096). They live with the screen rather than in the app's dictionaries, which
 * the first screen loads: only someone who opens a statement downloads them.
 */
export const STATEMENT_TEXT = Object.freeze({
  open: { he: 'דוח תנועות', en: 'Statement' },
  title: { he: 'דוח תנועות', en: 'Statement' },
  intro: {
    he: 'כל תנועה ביתרה בתקופה שבחרתם, עם היתרה אחרי כל אחת. הימים לפי שעון המכשיר שלכם.',
    en: 'Every movement of your balance in the period you choose, with the balance after each. Days follow your device’s clock.',
  },
  from: { he: 'מתאריך', en: 'From' },
  to: { he: 'עד תאריך (כולל)', en: 'To (included)' },
  opening: { he: 'יתרת פתיחה', en: 'Opening balance' },
  credits: { he: 'נכנס', en: 'Money in' },
  debits: { he: 'יצא', en: 'Money out' },
  closing: { he: 'יתרת סגירה', en: 'Closing balance' },
  date: { he: 'מועד', en: 'Date' },
  description: { he: 'תיאור', en: 'Description' },
  amount: { he: 'סכום', en: 'Amount' },
  balanceAfter: { he: 'יתרה', en: 'Balance' },
  empty: { he: 'לא היו תנועות ביתרה בתקופה הזו.', en: 'Your balance did not move in this period.' },
  downloadCsv: { he: 'הורדה כ-CSV', en: 'Download CSV' },
  downloadPdf: { he: 'הורדה כ-PDF', en: 'Download PDF' },
  downloading: { he: 'מכין את הקובץ…', en: 'Preparing the file…' },
  balanceOnTitle: { he: 'היתרה בתאריך', en: 'Balance on a date' },
  balanceOnDay: { he: 'יום', en: 'Day' },
  balanceOnAnswer: { he: 'היתרה בסוף {day}: {amount}', en: 'Your balance at the end of {day}: {amount}' },
  table: { he: 'התנועות בתקופה', en: 'Movements in the period' },
} satisfies Record<string, Bilingual>);
