import { type ReactNode } from 'react';

/**
 * Isolates a left-to-right token (an e-mail, an ID, an amount) inside Hebrew text so the bidi algorithm does not
 * scramble its characters or the punctuation around it.
 */
export function Ltr({ children }: { children: ReactNode }) {
  return <bdi dir="ltr">{children}</bdi>;
}

/**
 * The plain-text form of `Ltr`, for a token placed into a translated sentence (where no element can go): Unicode's
 * left-to-right isolate (LRI … PDI) does what `<bdi dir="ltr">` does.
 */
export function isolateLtr(text: string): string {
  return `\u2066${text}\u2069`;
}
