import { Fragment, type ReactNode } from 'react';

/**
 * Fills `{name}` placeholders with React nodes, so an LTR token such as an e-mail address or an amount can sit
 * inside a translated sentence wrapped in `<bdi>` instead of being glued in as plain text.
 */
export function richText(template: string, params: Readonly<Record<string, ReactNode>>): ReactNode {
  const parts = template.split(/\{(\w+)\}/g);
  return parts.map((part, index) => {
    // Odd positions of the split are the placeholder names.
    if (index % 2 === 0) return <Fragment key={index}>{part}</Fragment>;
    return (
      <Fragment key={index}>{Object.prototype.hasOwnProperty.call(params, part) ? params[part] : `{${part}}`}</Fragment>
    );
  });
}

/** Wraps each value in `<bdi>` so its own direction is kept inside text of the other direction. */
export function isolated(params: Readonly<Record<string, string | number>>): Record<string, ReactNode> {
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, <bdi key={name}>{value}</bdi>]));
}
