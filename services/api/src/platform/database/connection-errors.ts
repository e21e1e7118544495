import { Logger } from '@nestjs/common';
import type { ClientBase } from 'pg';

const logger = new Logger('Database');

/**
 * The pool's `onConnect` hook: gives every new connection an `error` listener of its own, for its whole life.
 *
 * The pool listens for errors only while a connection is idle, and TypeORM only once its query runner holds it; in
 * between, the connection belongs to nobody. When PostgreSQL dies just as a connection is made, the server's last
 * two messages (ready for a query, then "terminating connection") arrive in one packet and are read in one go: the
 * connection is handed out on the first and fails on the second before its new owner has listened, and an `error`
 * nobody listens to ends the Node process. With this listener the error is logged instead; the connection is marked
 * broken, its owner's first query fails like any other lost connection, and the pool throws it away on release
 * (docs/adr/0041-connection-errors-outside-queries.md).
 */
export function listenForConnectionErrors(client: ClientBase): void {
  client.on('error', (error: Error) => logger.warn(`A database connection failed outside a query: ${error.message}`));
}
