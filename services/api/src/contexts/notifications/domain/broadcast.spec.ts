import { DomainError } from '../../../kernel';
import { broadcastOccasionKey, handOffAllowance, recipientsAtSend } from './broadcast';

const dana = '11111111-1111-4111-8111-111111111111';
const eli = '22222222-2222-4222-8222-222222222222';

describe('a broadcast’s recipients', () => {
  it('Given two matched clients, one opted out, When sent, Then one is queued and the other shown as skipped', () => {
    expect(recipientsAtSend([dana, eli], new Set([eli]))).toEqual([
      { userUuid: dana, status: 'QUEUED' },
      { userUuid: eli, status: 'SKIPPED_UNSUBSCRIBED' },
    ]);
  });

  it('Given a client matched twice, When sent, Then they are a recipient once', () => {
    expect(recipientsAtSend([dana, dana], new Set())).toEqual([{ userUuid: dana, status: 'QUEUED' }]);
  });

  it('Given no matched client, When sent, Then it is refused', () => {
    expect(() => recipientsAtSend([], new Set())).toThrow(new DomainError('error.broadcast.no.recipients'));
  });
});

describe('the hand-off rate', () => {
  it('Given 60 a minute and 45 handed in the last minute, When a pass runs, Then it may hand 15', () => {
    expect(handOffAllowance(60, 45)).toBe(15);
  });

  it('Given the minute’s rate already used (or more, by a racing pass), When a pass runs, Then it hands none', () => {
    expect(handOffAllowance(60, 60)).toBe(0);
    expect(handOffAllowance(60, 61)).toBe(0);
  });
});

describe('the occasion key', () => {
  it('Given one broadcast and one client, When keyed twice, Then the key is the same; another client, another key', () => {
    expect(broadcastOccasionKey('b-1', dana)).toBe(broadcastOccasionKey('b-1', dana));
    expect(broadcastOccasionKey('b-1', dana)).not.toBe(broadcastOccasionKey('b-1', eli));
  });
});
