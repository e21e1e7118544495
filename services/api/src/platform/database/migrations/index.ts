import { EventStore1763800000000 } from './1763800000000-event-store';

/** Migrations of the platform (the event store), run before every context's own. */
export const platformMigrations = [EventStore1763800000000];
