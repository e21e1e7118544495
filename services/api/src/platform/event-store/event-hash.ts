import { canonicalJson } from '@kupa/proto';
import { createHash } from 'node:crypto';

/** The fields of an event that its hash covers: everything a reader could act on, but not where it was stored. */
export interface HashedEventFields {
  streamId: string;
  streamVersion: number;
  type: string;
  data: unknown;
  metadata: unknown;
}

/** The hash of the first event of a stream is chained to this empty predecessor. */
export const GENESIS_HASH = '';

/**
 * One link of a stream's hash chain: sha256 (hex) of the previous event's hash followed by the canonical JSON of
 * this event. Editing any stored event changes its hash and therefore breaks every later link of its stream.
 * proto's canonical JSON (RFC 8785 style) writes every payload the store holds exactly as the serialiser that made
 * the stored hashes did, so they still verify (canonical-json-compat.int-spec.ts proves it on real events).
 */
export function chainHash(previousHash: string | null, event: HashedEventFields): string {
  const body = canonicalJson({
    streamId: event.streamId,
    streamVersion: event.streamVersion,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
  });
  return createHash('sha256')
    .update(previousHash ?? GENESIS_HASH)
    .update(body)
    .digest('hex');
}
