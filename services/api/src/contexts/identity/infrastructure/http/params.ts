import { CanonicalUuidPipe } from '../../../../platform/http';

/** A path user uuid; a malformed one names no user, so it answers like a missing one (404), never a 500. */
export const UserUuidPipe = CanonicalUuidPipe('error.user.not.found');

/** A path note id, same reasoning. */
export const NoteIdPipe = CanonicalUuidPipe('error.entity.not.found');
