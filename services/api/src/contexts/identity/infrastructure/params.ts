import { ParseUUIDPipe } from '@nestjs/common';
import { ApiError } from '../../../platform/http';

/** A path user uuid; a malformed one names no user, so it answers like a missing one (404), never a 500. */
export const UserUuidPipe = new ParseUUIDPipe({ exceptionFactory: () => new ApiError('error.user.not.found') });

/** A path note id, same reasoning. */
export const NoteIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new ApiError('error.entity.not.found') });
