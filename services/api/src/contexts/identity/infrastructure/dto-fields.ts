import { Transform } from 'class-transformer';

/** E-mail addresses are compared without case and surrounding spaces, so they are stored that way too. */
export const NormalizedEmail = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value));

/** Names keep their inner spelling but lose accidental surrounding spaces. */
export const Trimmed = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
