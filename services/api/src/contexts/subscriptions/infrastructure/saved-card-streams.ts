import { savedCardStreamId } from '@kupa/proto';
import { foldedStreamKind } from '../../../platform/commands';
import { savedCardEvolution } from '../domain/saved-card.decider';

/** Saved card streams (`saved-card-{userUuid}`): a customer, a card now and then, so folded whole. */
export const savedCardStreams = foldedStreamKind(savedCardEvolution, (userUuid) => savedCardStreamId(String(userUuid)));
