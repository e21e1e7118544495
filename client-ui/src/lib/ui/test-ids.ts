import type { HTMLAttributes, InputHTMLAttributes } from 'react';

/**
 * Props that put a `data-testid` on the native input inside an MUI field, where browser tests type and click.
 * The cast is needed because object literals, unlike JSX attributes, do not accept `data-*` keys by type.
 */
export function inputTestId(testId: string): InputHTMLAttributes<HTMLInputElement> {
  return { 'data-testid': testId } as InputHTMLAttributes<HTMLInputElement>;
}

/** The same for the `<div>`-based parts of MUI components, such as a select's clickable display. */
export function elementTestId(testId: string): HTMLAttributes<HTMLDivElement> {
  return { 'data-testid': testId } as HTMLAttributes<HTMLDivElement>;
}
