import { describe, expect, it } from 'vitest';
import { formatErrorMessage } from './errors';
import { fillPlaceholders, templateParts } from './placeholders';

describe('fillPlaceholders', () => {
  it('fills every occurrence of a named placeholder and keeps unknown ones as written', () => {
    expect(fillPlaceholders('{n} of {n}, up to {max} ({missing})', { n: 3, max: 'ten' })).toBe(
      '3 of 3, up to ten ({missing})',
    );
  });

  it('never fills a placeholder from inherited properties', () => {
    expect(fillPlaceholders('{constructor} {toString}', {})).toBe('{constructor} {toString}');
  });

  it('is what the error catalogue formats with', () => {
    expect(formatErrorMessage('error.validation.max.length', 'en', { max: 255 })).toContain('255');
  });
});

describe('templateParts', () => {
  it('cuts a template into text and placeholders in order', () => {
    expect(templateParts('Sent {amount} to {email}.')).toEqual([
      { text: 'Sent ' },
      { placeholder: 'amount' },
      { text: ' to ' },
      { placeholder: 'email' },
      { text: '.' },
    ]);
    expect(templateParts('{a}{b}')).toEqual([{ placeholder: 'a' }, { placeholder: 'b' }]);
    expect(templateParts('plain')).toEqual([{ text: 'plain' }]);
  });
});
