import { isOneOf, LANGUAGES, type Language } from '@kupa/proto';

/** Hebrew's withdrawn ISO 639 code, which some older systems still send. */
const LEGACY_HEBREW = 'iw';
/** A q-value: 0 to 1 with at most three decimals (RFC 9110, 12.4.2). */
const QUALITY = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

/**
 * The language among ours (`LANGUAGES`) that an `Accept-Language` header prefers: the highest q-value wins and, among
 * equals, the one listed first; regional variants count as their language (`he-IL`, `en-GB`). A header that names
 * none of ours, a wildcard or nothing at all gives `fallback`, and so does one that cannot be read: a header is a
 * preference, never a reason to refuse a request.
 */
export function acceptedLanguage<Fallback extends Language | null>(
  header: string | undefined,
  fallback: Fallback,
): Language | Fallback {
  if (!header) return fallback;
  let best: { language: Language; quality: number } | null = null;
  for (const item of header.split(',')) {
    const [range, ...parameters] = item.split(';').map((part) => part.trim());
    const primary = range.split('-')[0].toLowerCase();
    const language = primary === LEGACY_HEBREW ? 'he' : primary;
    if (!isOneOf(LANGUAGES, language)) continue;
    const qualityParameter = parameters.find((parameter) => /^q=/i.test(parameter));
    const match = qualityParameter === undefined ? null : QUALITY.exec(qualityParameter);
    if (qualityParameter !== undefined && !match) continue;
    const quality = match ? Number(match[1]) : 1;
    if (quality > 0 && (best === null || quality > best.quality)) best = { language, quality };
  }
  return best?.language ?? fallback;
}
