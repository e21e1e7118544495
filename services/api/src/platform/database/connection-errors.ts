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

/**
 * Why the database could not serve a statement, when the fault is the connection and not the statement:
 * - `busy`: no connection to be had right now (PostgreSQL's `max_connections` or a role's or database's limit, SQLSTATE
 *   53300; or the pool's wait for a free connection ran out);
 * - `down`: the server refuses, drops or cannot be reached (connection exceptions, class 08; a shutdown or a start,
 *   57P01 to 57P03; the socket's errors; a connection ended under a query).
 */
export type DatabaseUnavailability = 'busy' | 'down';

const DOWN_SQLSTATE = /^(08|57P0[1-3])/;
const BUSY_SQLSTATE = '53300';
const DOWN_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
]);
/** `pg`'s own messages, which carry no code: the pool's wait, and a connection lost or timed out while connecting. */
const POOL_WAIT_MESSAGE = /timeout exceeded when trying to connect/i;
const LOST_MESSAGE = /Connection terminated/i;

/** Whether `error` says the database is unavailable (see `DatabaseUnavailability`), and how; null for any other error. */
export function databaseUnavailability(error: unknown): DatabaseUnavailability | null {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code === BUSY_SQLSTATE) return 'busy';
    if (DOWN_SQLSTATE.test(code) || DOWN_ERRNO.has(code)) return 'down';
  }
  if (typeof message !== 'string') return null;
  if (POOL_WAIT_MESSAGE.test(message)) return 'busy';
  return LOST_MESSAGE.test(message) ? 'down' : null;
}
