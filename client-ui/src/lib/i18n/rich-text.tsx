import { Fragment, type ReactNode } from 'react';
import { hasParam, templateParts } from '@kupa/proto';

/**
 * Fills `{name}` placeholders with React nodes, so an LTR token such as an e-mail address or an amount can sit
 * inside a translated sentence wrapped in `<bdi>` instead of being glued in as plain text.
 */
export function richText(template: string, params: Readonly<Record<string, ReactNode>>): ReactNode {
  return templateParts(template).map((part, index) => (
    <Fragment key={index}>
      {'text' in part
        ? part.text
        : hasParam(params, part.placeholder)
          ? params[part.placeholder]
          : `{${part.placeholder}}`}
    </Fragment>
  ));
}

/** Wraps each value in `<bdi>` so its own direction is kept inside text of the other direction. */
export function isolated(params: Readonly<Record<string, string | number>>): Record<string, ReactNode> {
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, <bdi key={name}>{value}</bdi>]));
}
