import { STAFF_NOTICE_MESSAGES } from '../features/auth/login/staff-notice';
import { NOTIFICATION_SETTINGS_MESSAGES } from '../features/profile/notification-settings-text';
import type { DictionaryPart } from '../lib/i18n/dictionary-part';
import { VIEW_AS_MESSAGES } from '../lib/view-as/view-as-messages';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

/** The texts that load with their own screens rather than with the sign-in page (ADR 0048), checked as the main ones. */
const PARTS: Record<string, DictionaryPart<string>> = {
  viewAs: VIEW_AS_MESSAGES,
  staffNotice: STAFF_NOTICE_MESSAGES,
  notificationSettings: NOTIFICATION_SETTINGS_MESSAGES,
};

describe('dictionary parts', () => {
  it('have the same keys, no empty text and the same placeholders in both languages', () => {
    const problems: string[] = [];
    for (const [name, part] of Object.entries(PARTS)) {
      if (Object.keys(part.en).sort().join() !== Object.keys(part.he).sort().join())
        problems.push(`${name}: keys differ`);
      for (const key of Object.keys(part.he)) {
        if (part.he[key].trim() === '' || part.en[key].trim() === '') problems.push(`${name}.${key}: empty text`);
        if (placeholders(part.en[key]).join() !== placeholders(part.he[key]).join())
          problems.push(`${name}.${key}: placeholders differ`);
      }
    }
    expect(problems).toEqual([]);
  });
});
