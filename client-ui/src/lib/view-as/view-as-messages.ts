import type { DictionaryPart } from '../i18n/dictionary-part';

/*
 * The texts of a staff member's read-only view (docs/adr/0092-refund-to-balance-and-view-as.md): its page, banner,
 * menu entry and disabled actions. Only screens of the signed-in shell and the view's own page show them, so they
 * load with those chunks, not with the sign-in page (docs/adr/0048-first-screen-in-one-chunk.md).
 */
const he = {
  opening: 'פותחים את התצוגה…',
  'closed.title': 'אין תצוגה פתוחה בלשונית הזו',
  'closed.refused': 'הקישור לתצוגה פג או שאינו תקף.',
  'closed.body': 'צוות פותח תצוגה של לקוח מדף הלקוח במסוף הניהול. אפשר לסגור את הלשונית.',
  closeTab: 'סגירת הלשונית',
  end: 'סיום התצוגה',
  'banner.label': 'צפייה בתור לקוח',
  'banner.active': 'צפייה בתור {client} — לקריאה בלבד — מסתיימת בשעה {time}',
  'banner.ended': 'הצפייה בתור {client} הסתיימה — אפשר לפתוח אותה שוב ממסוף הניהול',
  'ended.title': 'התצוגה הסתיימה',
  'ended.body': 'תוקף הצפייה לקריאה בלבד פג. כדי להמשיך, פתחו תצוגה חדשה מדף הלקוח במסוף הניהול.',
  readOnlyAction: 'לא זמין בצפייה לקריאה בלבד: הצוות אינו פועל בשם הלקוח.',
} as const;

export type ViewAsMessageKey = keyof typeof he;

const en: Record<ViewAsMessageKey, string> = {
  opening: 'Opening the view…',
  'closed.title': 'No view is open in this tab',
  'closed.refused': 'This view link has expired or is not valid.',
  'closed.body': "Staff open a view of a client from the client's page in the staff console. You can close this tab.",
  closeTab: 'Close tab',
  end: 'End view',
  'banner.label': 'Viewing as a client',
  'banner.active': 'Viewing as {client} — read only — ends at {time}',
  'banner.ended': 'The view as {client} has ended — open it again from the staff console',
  'ended.title': 'This view has ended',
  'ended.body':
    "The read-only view has expired. To go on, open a new view from the client's page in the staff console.",
  readOnlyAction: 'Not available in a read-only view: staff do not act for the client.',
};

export const VIEW_AS_MESSAGES: DictionaryPart<ViewAsMessageKey> = { he, en };
