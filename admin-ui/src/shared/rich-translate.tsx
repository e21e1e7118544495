import { Fragment, type ReactNode, useCallback } from 'react';
import { useTranslate } from 'react-admin';

/** Stands in for a node while polyglot fills the message; private-use characters never occur in a catalogue text. */
const MARKER = /\uE000(\d+)\uE001/;

/**
 * `translate` for messages that embed elements: each `%{name}` whose value is a node (a name or an e-mail in `<bdi>`)
 * becomes that node inside the translated sentence, so a left-to-right token keeps its order inside Hebrew text and a
 * Hebrew name keeps its own inside English.
 */
export function useRichTranslate(): (key: string, nodes: Readonly<Record<string, ReactNode>>) => ReactNode {
  const translate = useTranslate();
  return useCallback(
    (key, nodes) => {
      const names = Object.keys(nodes);
      const text = translate(key, Object.fromEntries(names.map((name, index) => [name, `\uE000${index}\uE001`])));
      return text.split(MARKER).map((part, index) =>
        // `split` with a capturing group puts each captured index at the odd positions.
        index % 2 === 1 ? <Fragment key={index}>{nodes[names[Number(part)]]}</Fragment> : part,
      );
    },
    [translate],
  );
}

/** A token of either direction inside a sentence: isolated, with its direction taken from its first strong letter. */
export function Isolated({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <bdi dir="auto" data-testid={testId}>
      {children}
    </bdi>
  );
}
