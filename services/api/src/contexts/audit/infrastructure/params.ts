import { CanonicalUuidPipe } from '../../../platform/http';

/** A malformed id names no entry, so it answers like a missing one (404), never a 500 from the uuid column. */
export const AuditLogIdPipe = CanonicalUuidPipe('error.audit.not.found');
