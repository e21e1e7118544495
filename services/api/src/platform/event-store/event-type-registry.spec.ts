import { EventTypeRegistry } from './event-type-registry';

describe('EventTypeRegistry', () => {
  it('Given a type registered by name only, when asked, then it is at schema version 1 and reads unchanged', () => {
    const registry = new EventTypeRegistry();
    registry.register('UserRegistered');
    expect(registry.isRegistered('UserRegistered')).toBe(true);
    expect(registry.schemaVersion('UserRegistered')).toBe(1);
    expect(registry.upcast('UserRegistered', 1, { a: 1 })).toEqual({ a: 1 });
  });

  it('Given upcasters 1→2 and 2→3, when a version 1 event is read, then both apply in order', () => {
    const registry = new EventTypeRegistry();
    registry.register('Deposited', {
      schemaVersion: 3,
      upcasters: {
        1: (data) => ({ ...(data as object), currency: 'USD' }),
        2: (data) => {
          const { amount, ...rest } = data as { amount: number };
          return { ...rest, amountMinor: amount * 100 };
        },
      },
    });
    expect(registry.upcast('Deposited', 1, { amount: 5 })).toEqual({ currency: 'USD', amountMinor: 500 });
    expect(registry.upcast('Deposited', 3, { amountMinor: 7 })).toEqual({ amountMinor: 7 });
  });

  it('Given a missing step in the chain, when an old event is read, then reading fails loudly', () => {
    const registry = new EventTypeRegistry();
    registry.register('Deposited', { schemaVersion: 3, upcasters: { 2: (data) => data } });
    expect(() => registry.upcast('Deposited', 1, {})).toThrow('no upcaster from schema version 1');
  });

  it('Given an event stored by a newer build, when read, then it is refused', () => {
    const registry = new EventTypeRegistry();
    registry.register('Deposited');
    expect(() => registry.upcast('Deposited', 2, {})).toThrow('newer than');
  });

  it('Given invalid registrations, when made, then they are refused', () => {
    const registry = new EventTypeRegistry();
    registry.register('A', { schemaVersion: 2 });
    expect(() => registry.register('A', { schemaVersion: 2 })).not.toThrow();
    expect(() => registry.register('A')).toThrow('schema versions 2 and 1');
    expect(() => registry.registerUpcaster('A', 2, (data) => data)).toThrow('outside');
    expect(() => registry.registerUpcaster('B', 1, (data) => data)).toThrow('before its upcasters');
    expect(() => registry.register('C', { schemaVersion: 0 })).toThrow('positive integer');
  });
});
