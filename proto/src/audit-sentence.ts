import { LANGUAGE_LOCALES, type Language, SYSTEM_ACTOR_ID } from './enums';
import { isKnownEventType } from './event-catalogue';
import {
  AUDIT_WORDS,
  auditFieldText,
  type AuditValueKind,
  EVENT_SENTENCE_VARIANTS,
  EVENT_SENTENCES,
  eventTypeLabel,
  FALLBACK_SENTENCE,
  NOTE_FIELD_PREFIX,
  OPERATION_EVENT_LABELS,
} from './event-text';
import { CARD_PROVIDER_STATUS_LABELS } from './card';
import { CASHIER_PROVIDER_STATUS_LABELS, cryptoMethodOfPayCurrency } from './cashier';
import { enumLabel } from './labels';
import {
  NOTIFICATION_CHANNEL_LABELS,
  NOTIFICATION_CHANNELS,
  type NotificationChannel,
} from './notification-preferences';
import { formatDollarsForIsolate, keptOnOneLine, withoutDirectionMarks } from './money';
import type { AuditChange, AuditLog, AuditRef } from './payloads';
import { hasParam, templateParts } from './placeholders';

/**
 * A piece of activity-log text. `isolate` marks a value that must keep its own direction inside a sentence of the
 * other direction: `ltr` for e-mails, ids, amounts and instants, `auto` for names and free text.
 */
export interface TextSegment {
  text: string;
  isolate?: 'ltr' | 'auto';
}

/** A sentence part: text, or the entry's target or parent, which a screen shows as a link. */
export type SentencePart = TextSegment | { ref: 'target' | 'parent'; segments: TextSegment[] };

/** English words as a heading starts them: the first letter a capital (Hebrew has no case). */
export function capitalized(text: string, lang: Language): string {
  return lang === 'en' && text.length > 0 ? text[0].toUpperCase() + text.slice(1) : text;
}

/** A field's label, as a column shows it: capitalised in English; the raw name when the field is not catalogued. */
export function auditFieldLabel(ref: Pick<AuditRef, 'type'>, field: string, lang: Language): string {
  const text = auditFieldText(ref.type, field);
  return text ? capitalized(text.label[lang], lang) : field;
}

function formatInstant(value: string, lang: Language): string | null {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return keptOnOneLine(
    withoutDirectionMarks(
      new Intl.DateTimeFormat(LANGUAGE_LOCALES[lang], { dateStyle: 'medium', timeStyle: 'short' }).format(date),
    ),
  );
}

function formatKnownValue(value: unknown, kind: AuditValueKind, lang: Language): TextSegment | null {
  switch (kind.kind) {
    case 'enum':
      return typeof value === 'string' || typeof value === 'number'
        ? { text: enumLabel(kind.enumName, value, lang), isolate: 'auto' }
        : null;
    case 'money':
      return typeof value === 'number' && Number.isFinite(value)
        ? { text: formatDollarsForIsolate(value, lang), isolate: 'ltr' }
        : null;
    case 'instant': {
      const text = typeof value === 'string' ? formatInstant(value, lang) : null;
      // `auto`, not `ltr`: a Hebrew date holds a Hebrew month, and laid out left to right its day and time trade
      // places ("בדצמ׳ 2026, 11:22 29"); its first strong letter gives each language its own order.
      return text === null ? null : { text, isolate: 'auto' };
    }
    case 'boolean':
      return typeof value === 'boolean' ? { text: (value ? AUDIT_WORDS.yes : AUDIT_WORDS.no)[lang] } : null;
    case 'text':
      return typeof value === 'string' ? { text: value, isolate: kind.ltr ? 'ltr' : 'auto' } : null;
    case 'list':
      return Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? { text: value.join(AUDIT_WORDS.changeSeparator[lang]), isolate: 'auto' }
        : null;
    case 'providerStatus': {
      const label = typeof value === 'string' ? providerStatusLabel(value) : undefined;
      return label ? { text: label[lang], isolate: 'auto' } : null;
    }
    case 'payCurrency': {
      const method = typeof value === 'string' ? cryptoMethodOfPayCurrency(value) : null;
      return method ? { text: enumLabel('paymentMethod', method, lang), isolate: 'auto' } : null;
    }
    case 'provider': {
      const name = typeof value === 'string' ? PROVIDER_NAMES[value] : undefined;
      return name ? { text: name[lang], isolate: 'auto' } : null;
    }
    case 'extension':
      return extensionText(value, lang);
    case 'count':
      return typeof value === 'number' && Number.isFinite(value)
        ? { text: formatCount(value, lang), isolate: 'auto' }
        : null;
    case 'bulkOperation':
      return bulkOperationText(value, lang);
    case 'channels':
      return channelsText(value, lang);
  }
}

/** "e-mail, portal", or "off" for none; a value that is not a list of known channels is shown as it is. */
function channelsText(value: unknown, lang: Language): TextSegment | null {
  if (!Array.isArray(value)) return null;
  const known: readonly unknown[] = NOTIFICATION_CHANNELS;
  if (!value.every((item) => known.includes(item))) return null;
  if (value.length === 0) return { text: AUDIT_WORDS.noChannel[lang] };
  const names = (value as NotificationChannel[]).map((channel) => NOTIFICATION_CHANNEL_LABELS[channel][lang]);
  return { text: names.join(AUDIT_WORDS.changeSeparator[lang]), isolate: 'auto' };
}

function formatCount(value: number, lang: Language): string {
  return new Intl.NumberFormat(LANGUAGE_LOCALES[lang]).format(value);
}

/** What a bulk batch does to how many, one phrase per action; `{count}` is the targets, `{amount}` a credit. */
const BULK_OPERATION_WORDS = Object.freeze({
  ADD_DAYS: { he: '+{days} ל-{count}', en: '+{days} to {count}' },
  GOODWILL_CREDIT: {
    he: 'זיכוי רצון טוב של {amount} לכל אחד מ-{count}',
    en: 'a goodwill credit of {amount} to each of {count}',
  },
  BLOCK: { he: 'חסימת {count}', en: 'blocking {count}' },
  UNBLOCK: { he: 'ביטול החסימה של {count}', en: 'unblocking {count}' },
} satisfies Record<string, Readonly<Record<Language, string>>>);

const BULK_TARGET_WORDS = Object.freeze({
  CLIENT: { one: { he: 'לקוח אחד', en: '1 client' }, many: { he: '{n} לקוחות', en: '{n} clients' } },
  SUBSCRIPTION: { one: { he: 'מנוי אחד', en: '1 subscription' }, many: { he: '{n} מנויים', en: '{n} subscriptions' } },
});

/** "+2 days to 1,234 subscriptions", "a goodwill credit of $5.00 to each of 12 clients", "blocking 3 clients". */
function bulkOperationText(value: unknown, lang: Language): TextSegment | null {
  if (value === null || typeof value !== 'object') return null;
  const { action, targetKind, targetCount, days, amount } = value as Record<string, unknown>;
  const own = Object.prototype.hasOwnProperty;
  if (typeof action !== 'string' || !own.call(BULK_OPERATION_WORDS, action)) return null;
  if (typeof targetKind !== 'string' || !own.call(BULK_TARGET_WORDS, targetKind)) return null;
  if (typeof targetCount !== 'number') return null;
  const targets = BULK_TARGET_WORDS[targetKind as keyof typeof BULK_TARGET_WORDS];
  const count =
    targetCount === 1 ? targets.one[lang] : targets.many[lang].replace('{n}', formatCount(targetCount, lang));
  const dayCount =
    days === 1
      ? EXTENSION_WORDS.oneDay[lang]
      : EXTENSION_WORDS.days[lang].replace('{days}', typeof days === 'number' ? String(days) : '?');
  const text = BULK_OPERATION_WORDS[action as keyof typeof BULK_OPERATION_WORDS][lang]
    .replace('{days}', dayCount)
    .replace('{amount}', typeof amount === 'number' ? formatDollarsForIsolate(amount, lang) : '?')
    .replace('{count}', count);
  return { text, isolate: 'auto' };
}

const EXTENSION_WORDS = Object.freeze({
  oneDay: { he: 'יום אחד', en: '1 day' },
  days: { he: '{days} ימים', en: '{days} days' },
  voucher: { he: 'שובר {label}', en: 'voucher {label}' },
});

/** "+2 days: a goodwill gesture", "+30 days: voucher Summer 2026" (ADR 0089): days added, and why. */
function extensionText(value: unknown, lang: Language): TextSegment | null {
  if (value === null || typeof value !== 'object') return null;
  const { days, reason, source } = value as { days?: unknown; reason?: unknown; source?: unknown };
  if (typeof days !== 'number' || typeof reason !== 'string') return null;
  const count = days === 1 ? EXTENSION_WORDS.oneDay[lang] : EXTENSION_WORDS.days[lang].replace('{days}', String(days));
  const why = source === 'VOUCHER' ? EXTENSION_WORDS.voucher[lang].replace('{label}', reason) : reason;
  return { text: `+${count}: ${why}`, isolate: 'auto' };
}

/**
 * The outside providers a payment's events name, as staff know them. `SANDBOX` is the sandbox cashier on a crypto
 * deposit and the sandbox card on a card deposit (ADR 0080), so its name says only that it is the sandbox.
 */
const PROVIDER_NAMES: Readonly<Record<string, Readonly<Record<Language, string>>>> = Object.freeze({
  NOWPAYMENTS: { he: 'NOWPayments', en: 'NOWPayments' },
  SANDBOX: { he: 'סביבת הניסוי (לא כסף אמיתי)', en: 'Sandbox (not real money)' },
  STRIPE: { he: 'Stripe', en: 'Stripe' },
});

/**
 * A provider's status word in people's language. The cashier's and the card provider's words share `failed` and
 * `expired`, which mean the same for both, so one lookup serves the field on either kind of deposit.
 */
function providerStatusLabel(value: string): Readonly<Record<Language, string>> | undefined {
  const own = Object.prototype.hasOwnProperty;
  if (own.call(CASHIER_PROVIDER_STATUS_LABELS, value))
    return CASHIER_PROVIDER_STATUS_LABELS[value as keyof typeof CASHIER_PROVIDER_STATUS_LABELS];
  if (own.call(CARD_PROVIDER_STATUS_LABELS, value))
    return CARD_PROVIDER_STATUS_LABELS[value as keyof typeof CARD_PROVIDER_STATUS_LABELS];
  return undefined;
}

/**
 * A field's value in people's language: an enum's label, an amount, an instant, yes or no. A value that does not fit
 * its field's kind, or belongs to a field the catalogue does not list, is shown as it is (objects as JSON), so the
 * log never hides what an event recorded.
 */
export function formatAuditValue(
  ref: Pick<AuditRef, 'type'>,
  field: string,
  value: unknown,
  lang: Language,
): TextSegment {
  if (value === null || value === undefined || value === '') return { text: AUDIT_WORDS.empty[lang] };
  const kind = auditFieldText(ref.type, field)?.value;
  const known = kind ? formatKnownValue(value, kind, lang) : null;
  if (known) return known;
  return { text: typeof value === 'object' ? JSON.stringify(value) : String(value), isolate: 'auto' };
}

/** A user id's kinds of target: named by the person's name and e-mail when the API found them. */
const PERSON_TYPES = new Set(['ADMIN', 'MANAGER', 'CLIENT']);

/**
 * How a target or parent is named: a person by name and e-mail, a payment by its number, a package or a subscription
 * by its name, anything else by its type and id.
 */
export function auditRefSegments(ref: AuditRef, lang: Language): TextSegment[] {
  const typeLabel = enumLabel('auditTargetType', ref.type, lang);
  if (PERSON_TYPES.has(ref.type) && ref.name) {
    return ref.email
      ? [{ text: ref.name, isolate: 'auto' }, { text: ' (' }, { text: ref.email, isolate: 'ltr' }, { text: ')' }]
      : [{ text: ref.name, isolate: 'auto' }];
  }
  if (ref.type === 'PAYMENT') return [{ text: `${typeLabel} ` }, { text: `#${ref.id}`, isolate: 'ltr' }];
  // A package or subscription by the name the API found: the package's current one, or the last one its entries
  // recorded when it no longer exists; a subscription by its package's name as bought.
  // A trial subscription, which no package names, by its type's label (`nameEnum`).
  if ((ref.type === 'PACKAGE' || ref.type === 'SUBSCRIPTION') && ref.name) {
    const name = ref.nameEnum ? enumLabel(ref.nameEnum, ref.name, lang) : ref.name;
    return [{ text: `${typeLabel} ` }, { text: name, isolate: 'auto' }];
  }
  // A voucher batch by the label staff gave it when it was generated (ADR 0089); never by a code.
  // A bulk batch by its reason (ADR 0090), a broadcast by its subject (ADR 0091), as their entries recorded them.
  if ((ref.type === 'VOUCHER_BATCH' || ref.type === 'BULK_BATCH' || ref.type === 'BROADCAST') && ref.name)
    return [{ text: `${typeLabel} ` }, { text: ref.name, isolate: 'auto' }];
  return [{ text: `${typeLabel} ` }, { text: ref.id, isolate: 'ltr' }];
}

/** One change as "label old → new" (the arrow points the reading direction's way). */
function changeSegments(ref: AuditRef, change: AuditChange, lang: Language): TextSegment[] {
  const label = auditFieldText(ref.type, change.field)?.label[lang] ?? change.field;
  return [
    { text: `${label} ` },
    formatAuditValue(ref, change.field, change.oldValue, lang),
    { text: ` ${AUDIT_WORDS.changeArrow[lang]} ` },
    formatAuditValue(ref, change.field, change.newValue, lang),
  ];
}

/** Notes are told by the sentence ("note added"); their texts belong in the changes table, not in a list row. */
function isSentenceChange(change: AuditChange): boolean {
  return !change.field.startsWith(NOTE_FIELD_PREFIX);
}

function changesSegments(entry: AuditLog, lang: Language): TextSegment[] {
  const changes = entry.changes.filter(isSentenceChange);
  return changes.flatMap((change, index) => [
    ...(index > 0 ? [{ text: AUDIT_WORDS.changeSeparator[lang] }] : []),
    ...changeSegments(entry.target, change, lang),
  ]);
}

type Fill = TextSegment[] | { ref: 'target' | 'parent'; segments: TextSegment[] };

/** The values a sentence's placeholders stand for; a placeholder with nothing to show is absent. */
function fillsOf(entry: AuditLog, lang: Language): Record<string, Fill> {
  const fills: Record<string, Fill> = {
    target: { ref: 'target', segments: auditRefSegments(entry.target, lang) },
    event: [
      {
        text: isKnownEventType(entry.eventType)
          ? eventTypeLabel(entry.eventType, lang)
          : OPERATION_EVENT_LABELS[entry.operationType][lang],
      },
    ],
  };
  if (entry.parent) fills.parent = { ref: 'parent', segments: auditRefSegments(entry.parent, lang) };
  fills.actor = [{ text: auditActorName(entry.createdBy, lang), isolate: 'auto' }];
  const changes = changesSegments(entry, lang);
  if (changes.length > 0) fills.changes = changes;
  for (const change of entry.changes) {
    if (change.newValue !== null && change.newValue !== undefined && !hasParam(fills, change.field)) {
      fills[change.field] = [formatAuditValue(entry.target, change.field, change.newValue, lang)];
    }
  }
  return fills;
}

function fillTemplate(template: string, fills: Record<string, Fill>): SentencePart[] | null {
  const parts: SentencePart[] = [];
  for (const part of templateParts(template)) {
    if ('text' in part) {
      parts.push({ text: part.text });
      continue;
    }
    if (!hasParam(fills, part.placeholder)) return null;
    const fill = fills[part.placeholder];
    if (Array.isArray(fill)) parts.push(...fill);
    else parts.push(fill);
  }
  return parts;
}

/**
 * The activity-log sentence of an entry (docs/product.md, Audit), cut into text, isolated values and the target and
 * parent, so a screen can make links of those: "Payment #134 of Dana Cohen (dana@example.com): status Success →
 * Failed". An event whose own sentence cannot be filled (a field it names did not change) reads "{target}: {event}".
 */
export function auditSentenceParts(entry: AuditLog, lang: Language): SentencePart[] {
  const fills = fillsOf(entry, lang);
  if (isKnownEventType(entry.eventType)) {
    for (const variant of EVENT_SENTENCE_VARIANTS[entry.eventType] ?? []) {
      const filled = fillTemplate(variant[lang], fills);
      if (filled) return filled;
    }
  }
  const own = isKnownEventType(entry.eventType) ? fillTemplate(EVENT_SENTENCES[entry.eventType][lang], fills) : null;
  return own ?? (fillTemplate(FALLBACK_SENTENCE[lang], fills) as SentencePart[]);
}

const ISOLATES = { ltr: ['\u2066', '\u2069'], auto: ['\u2068', '\u2069'] } as const;

/** A segment as plain text, wrapped in Unicode's isolates when it must keep its own direction. */
export function segmentText(segment: TextSegment): string {
  if (!segment.isolate) return segment.text;
  const [open, close] = ISOLATES[segment.isolate];
  return `${open}${segment.text}${close}`;
}

/** The sentence as plain text (page titles, tooltips), values isolated with Unicode's isolates. */
export function auditSentence(entry: AuditLog, lang: Language): string {
  return auditSentenceParts(entry, lang)
    .map((part) => ('ref' in part ? part.segments.map(segmentText).join('') : segmentText(part)))
    .join('');
}

/** Who made an entry: their name as recorded, or "System" in the page language for the SYSTEM actor. */
export function auditActorName(createdBy: AuditLog['createdBy'], lang: Language): string {
  return createdBy.id === SYSTEM_ACTOR_ID ? AUDIT_WORDS.system[lang] : createdBy.name;
}
