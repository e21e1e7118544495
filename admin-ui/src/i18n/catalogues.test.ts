import englishMessages from 'ra-language-english';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { he } from './he';

/** Every leaf key of a nested catalogue as a dotted path, which is how polyglot looks messages up. */
function leafKeys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => leafKeys(child, prefix ? `${prefix}.${key}` : key));
}

function leafValues(value: unknown): unknown[] {
  if (typeof value !== 'object' || value === null) return [value];
  return Object.values(value).flatMap(leafValues);
}

describe('translation catalogues', () => {
  it('have exactly the same keys in Hebrew and English', () => {
    expect(leafKeys(he).sort()).toEqual(leafKeys(en).sort());
  });

  it('cover every react-admin key', () => {
    const heKeys = new Set(leafKeys(he));
    const missing = leafKeys(englishMessages).filter((key) => !heKeys.has(key));
    expect(missing).toEqual([]);
  });

  it('hold a non-empty string at every Hebrew leaf, translated rather than copied', () => {
    for (const value of leafValues(he)) expect(typeof value).toBe('string');
    // `ra.boolean.null` is a single space in both languages on purpose; everything else is real text.
    const blank = leafKeys(he).filter(
      (key, index) => key !== 'ra.boolean.null' && String(leafValues(he)[index]).trim() === '',
    );
    expect(blank).toEqual([]);
    const copied = leafKeys(he).filter(
      (key, index) =>
        /[A-Za-z]{4,}/.test(String(leafValues(he)[index])) && !/%\{|English/.test(String(leafValues(he)[index])),
    );
    expect(copied).toEqual([]);
  });

  it('keep the same placeholders in both languages', () => {
    const placeholders = (text: unknown) => (String(text).match(/%\{\w+\}/g) ?? []).sort();
    const heValues = leafValues(he);
    const enByKey = new Map(leafKeys(en).map((key, index) => [key, leafValues(en)[index]]));
    leafKeys(he).forEach((key, index) => {
      expect(placeholders(heValues[index]), key).toEqual(placeholders(enByKey.get(key)));
    });
  });
});
