import { type ReactNode } from 'react';

/**
 * Isolates a left-to-right token (an e-mail, an ID, an amount) inside Hebrew text so the bidi algorithm does not
 * scramble its characters or the punctuation around it.
 */
export function Ltr({ children }: { children: ReactNode }) {
  return <bdi dir="ltr">{children}</bdi>;
}
