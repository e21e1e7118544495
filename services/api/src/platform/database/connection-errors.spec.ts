import { databaseUnavailability } from './connection-errors';

const withCode = (code: string): Error => Object.assign(new Error(code), { code });

describe('databaseUnavailability', () => {
  it('calls the server out of connections, or the pool out of time to wait for one, busy', () => {
    expect(databaseUnavailability(withCode('53300'))).toBe('busy');
    expect(databaseUnavailability(new Error('timeout exceeded when trying to connect'))).toBe('busy');
  });

  it('calls a refused, dropped, shut-down or starting server down', () => {
    for (const code of ['08006', '08001', '57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND'])
      expect(databaseUnavailability(withCode(code))).toBe('down');
    expect(databaseUnavailability(new Error('Connection terminated unexpectedly'))).toBe('down');
    expect(databaseUnavailability(new Error('Connection terminated due to connection timeout'))).toBe('down');
  });

  it('leaves the statement’s own errors and bugs alone', () => {
    // A serialization failure, a unique violation, bad input, a lock timeout, a cancelled statement, a full disk.
    for (const code of ['40001', '23505', '22P02', '55P03', '57014', '53100'])
      expect(databaseUnavailability(withCode(code))).toBeNull();
    expect(databaseUnavailability(new Error('a bug'))).toBeNull();
    expect(databaseUnavailability(undefined)).toBeNull();
    expect(databaseUnavailability('text')).toBeNull();
  });
});
