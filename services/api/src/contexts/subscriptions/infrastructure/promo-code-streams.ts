import { promoCodeStreamId } from '@kupa/proto';
import { foldedStreamKind } from '../../../platform/commands';
import { promoCodeEvolution } from '../domain/promo-code.decider';

/**
 * Promo code streams (`promo-code-{CODE}`): folded whole, the uses included, since a code's limits are checked
 * against every use under its lock (docs/adr/0088-promo-codes.md).
 */
export const promoCodeStreams = foldedStreamKind(promoCodeEvolution, (code) => promoCodeStreamId(String(code)));
