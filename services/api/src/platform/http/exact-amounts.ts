import { isExactAmountText } from '@kupa/proto';
import type { NextFunction, Request, Response } from 'express';

/**
 * The body fields that hold dollar amounts: every property `IsAmount` decorates registers its name here when its DTO
 * class is defined, so a new money route is covered without a list to keep.
 */
export const AMOUNT_FIELD_NAMES = new Set<string>();

/** A JSON number's source text at a path of object keys and array indexes in the body. */
interface NumberLiteral {
  path: Array<string | number>;
  text: string;
}

const NUMBER_START = /[-0-9]/;
const NUMBER_TEXT = /-?[0-9][0-9.eE+-]*/y;

/**
 * Every number literal of a JSON text that `JSON.parse` already accepted, with its path: the text only, which a parsed
 * body has lost (`1E-2` and `0.01`, `1.0000000000000001` and `1` parse alike, and Node 20 gives a reviver no source
 * text). A plain scanner, without recursion, since the text is known to be valid JSON.
 */
export function numberLiterals(json: string): NumberLiteral[] {
  const found: NumberLiteral[] = [];
  // For each open container: its path, and for an object the key the next value belongs to; for an array its index.
  const stack: Array<{ path: Array<string | number>; key: string | number | null; isArray: boolean }> = [];
  let expectingKey = false;
  let index = 0;
  const here = (): Array<string | number> => {
    const top = stack[stack.length - 1];
    return top ? [...top.path, top.key as string | number] : [];
  };
  while (index < json.length) {
    const char = json[index];
    if (char === '{' || char === '[') {
      stack.push({ path: here(), key: char === '[' ? 0 : null, isArray: char === '[' });
      expectingKey = char === '{';
      index += 1;
    } else if (char === '}' || char === ']') {
      stack.pop();
      index += 1;
    } else if (char === ',') {
      const top = stack[stack.length - 1];
      if (top?.isArray) top.key = (top.key as number) + 1;
      else expectingKey = true;
      index += 1;
    } else if (char === '"') {
      let end = index + 1;
      while (json[end] !== '"') end += json[end] === '\\' ? 2 : 1;
      if (expectingKey) {
        const top = stack[stack.length - 1];
        if (top) top.key = JSON.parse(json.slice(index, end + 1)) as string;
        expectingKey = false;
      }
      index = end + 1;
    } else if (NUMBER_START.test(char)) {
      NUMBER_TEXT.lastIndex = index;
      const text = NUMBER_TEXT.exec(json)?.[0] ?? char;
      found.push({ path: here(), text });
      index += text.length;
    } else {
      index += 1;
    }
  }
  return found;
}

/**
 * Puts an amount written other than as exact dollars and cents (`1E-2`, `12.345`, `1.0000000000000001`, `-0`) back
 * into the parsed body as its source text, so that `IsAmount` refuses it with the catalogue code
 * `parseAmountTextToMinor` gives, instead of the rounded number `JSON.parse` made of it
 * (docs/adr/0058-money-paths-keep-their-promises.md). Other numbers are left as parsed.
 */
export function restoreInexactAmounts(request: Request, _response: Response, next: NextFunction): void {
  const raw = (request as Request & { rawBody?: Buffer }).rawBody;
  const body: unknown = request.body;
  if (raw === undefined || body === null || typeof body !== 'object' || !request.is('application/json')) {
    next();
    return;
  }
  for (const { path, text } of numberLiterals(raw.toString('utf8'))) {
    const key = path[path.length - 1];
    if (typeof key !== 'string' || !AMOUNT_FIELD_NAMES.has(key) || isExactAmountText(text)) continue;
    let parent: unknown = body;
    for (const step of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)?.[step];
    if (parent !== null && typeof parent === 'object' && typeof (parent as Record<string, unknown>)[key] === 'number')
      (parent as Record<string, unknown>)[key] = text;
  }
  next();
}
