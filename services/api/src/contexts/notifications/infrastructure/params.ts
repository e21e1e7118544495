import { CanonicalUuidPipe } from '../../../platform/http';

/** A notification id that is not a uuid answers as one that does not exist. */
export const NotificationIdPipe = CanonicalUuidPipe('error.notification.not.found');
export const UserUuidPipe = CanonicalUuidPipe('error.user.not.found');
