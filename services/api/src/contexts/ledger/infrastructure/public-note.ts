import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { checkPublicNote, LIMITS } from '@kupa/proto';
import { OptionalField, SatisfiesRule, Trimmed } from '../../../platform/http';

/**
 * The optional note staff add for the client to a payment they book or change (docs/product.md, Ledger, What a client
 * sees): trimmed, then held to proto's `checkPublicNote` (not blank, at most `LIMITS.publicNoteMaxLength` characters).
 * A note over the limit is refused with the catalogue's message, never cut.
 */
export const PublicNoteField = (description: string): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      minLength: 1,
      maxLength: LIMITS.publicNoteMaxLength,
      description: `${description}. Clients read it; the comment they never do`,
    }),
    OptionalField(),
    Trimmed(),
    SatisfiesRule(checkPublicNote),
  );
