/** Values for the `{name}` placeholders of a message template. */
export type MessageParams = Readonly<Record<string, string | number>>;

/** A template cut at its placeholders: literal text, or the name of a placeholder to fill. */
export type TemplatePart = { text: string } | { placeholder: string };

const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * Cuts a template into literal text and `{name}` placeholders, for callers that fill them with something other than
 * text (the client app puts `<bdi>` nodes into sentences). `fillPlaceholders` is the text form.
 */
export function templateParts(template: string): TemplatePart[] {
  // A split on a pattern with one capture group puts the captured names at the odd positions.
  return template
    .split(PLACEHOLDER)
    .map((piece, index) => (index % 2 === 1 ? { placeholder: piece } : { text: piece }))
    .filter((part) => !('text' in part) || part.text !== '');
}

/** Whether `params` holds a value for a placeholder; only own keys count, so `{constructor}` is never filled. */
export function hasParam<T>(params: Readonly<Record<string, T>>, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(params, name);
}

/**
 * Fills the `{name}` placeholders of an error-catalogue or UI message template. A placeholder without a value stays
 * as written, so a missing parameter shows up in the text instead of vanishing silently.
 */
export function fillPlaceholders(template: string, params: MessageParams = {}): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    hasParam(params, name) ? String(params[name]) : whole,
  );
}
