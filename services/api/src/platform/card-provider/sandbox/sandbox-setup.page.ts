import { type Language, SANDBOX_CHECKOUT_SIGNATURE_PARAM } from '@kupa/proto';
import { escapeHtml } from '../../http/html';
import { renderSandboxPage } from '../../http/sandbox-page';
import { SANDBOX_TEST_CARDS, type SandboxTestCard } from './saved-card-wire';
import type { SetupSessionWire } from './saved-card-wire';

const TEXT = {
  title: { he: 'שמירת כרטיס לניסוי', en: 'Sandbox card setup' },
  notice: {
    he: 'זהו דף ניסוי, לא Stripe. שום כרטיס אמיתי לא נשמר ושום פרטי כרטיס לא נדרשים: בחרו כרטיס ניסוי, והחיובים הבאים שלו יסתיימו כפי שכתוב לידו.',
    en: 'This is a sandbox test page, not Stripe. No real card is saved and no card details are asked for: pick a test card, and its later charges end as its label says.',
  },
  status: { he: 'סטטוס', en: 'Status' },
  open: { he: 'ממתין לבחירת כרטיס', en: 'Waiting for a card' },
  complete: { he: 'הכרטיס נשמר', en: 'Card saved' },
  expired: { he: 'פג תוקף', en: 'Expired' },
  choose: { he: 'כרטיס ניסוי', en: 'Test card' },
  pays: { he: 'כרטיס שמשלם', en: 'A card that pays' },
  'insufficient-funds': { he: 'כרטיס שנדחה בגלל יתרה לא מספיקה', en: 'A card declined for insufficient funds' },
  authentication: { he: 'כרטיס שדורש אימות של בעליו', en: 'A card that needs authentication' },
  save: { he: 'שמירה', en: 'Save' },
  cancel: { he: 'ביטול', en: 'Cancel' },
  back: { he: 'חזרה ל-Kupa', en: 'Back to Kupa' },
  otherLanguage: { he: 'English', en: 'עברית' },
} as const;

/**
 * The sandbox card's setup page (docs/adr/0087-sandbox-saved-cards.md), in the sandboxes' page frame. It says loudly
 * that it is a test page and has no card field: the client picks one of the test cards (radio buttons, the first
 * chosen), and Save is a form posting the choice to the save route, which answers the browser with a redirect to
 * the session's success address; Cancel is a link to its cancel address.
 */
export function renderSandboxSetupPage(
  session: SetupSessionWire,
  lang: Language,
  link: { path: string; signature: string },
): string {
  const href = (suffix: string, language: Language) =>
    `${link.path}${suffix}?${new URLSearchParams({ lang: language, [SANDBOX_CHECKOUT_SIGNATURE_PARAM]: link.signature })}`;
  const t = (key: keyof typeof TEXT) => escapeHtml(TEXT[key][lang]);
  const other: Language = lang === 'he' ? 'en' : 'he';
  const choices = (Object.keys(SANDBOX_TEST_CARDS) as SandboxTestCard[])
    .map((card, index) => {
      const test = SANDBOX_TEST_CARDS[card];
      return (
        `<label style="display:flex;gap:.5rem;align-items:center;min-height:44px">` +
        `<input type="radio" name="card" value="${card}"${index === 0 ? ' checked' : ''}>` +
        `<span>${t(card)} <bdi dir="ltr" style="white-space:nowrap">(${escapeHtml(test.brand)} •••• ${test.last4})</bdi></span></label>`
      );
    })
    .join('');
  const actions =
    session.status === 'open'
      ? `<form method="post" action="${escapeHtml(href('/save', lang))}">` +
        `<fieldset style="border:0;padding:0;margin:0 0 .5rem"><legend style="font-weight:600">${t('choose')}</legend>` +
        `${choices}</fieldset>` +
        `<div class="buttons"><button type="submit" data-action="save">${t('save')}</button>` +
        `<a class="button" data-action="cancel" href="${escapeHtml(session.cancel_url)}">${t('cancel')}</a></div></form>`
      : `<a class="button" href="${escapeHtml(session.status === 'complete' ? session.success_url : session.cancel_url)}">${t('back')}</a>`;
  return renderSandboxPage({
    lang,
    title: TEXT.title[lang],
    notice: TEXT.notice[lang],
    otherLanguage: { href: href('', other), label: TEXT.otherLanguage[lang] },
    factsHtml: `<dt>${t('status')}</dt><dd data-status="${session.status}">${t(session.status)}</dd>`,
    actionsHtml: actions,
  });
}
