import { deciderSpec } from '../../../test-support/decider-spec';
import { recipientsAtSend } from './broadcast';
import { type BroadcastEvent, broadcastEvolution, recordHandOff, sendBroadcast } from './broadcast.decider';

const broadcastId = '66666666-6666-4666-8666-666666666666';
const admin = '99999999-9999-4999-8999-999999999999';
const dana = '11111111-1111-4111-8111-111111111111';
const omer = '22222222-2222-4222-8222-222222222222';
const at = new Date('2026-11-29T10:00:00.000Z');

const send = {
  broadcastId,
  subjectHe: 'תחזוקה הלילה',
  subjectEn: 'Maintenance tonight',
  filter: { statuses: ['ACTIVE' as const] },
  recipients: recipientsAtSend([dana, omer], new Set([omer])),
  actorId: admin,
  at,
};
const [sent] = sendBroadcast(send, null);
const handedOff: BroadcastEvent = {
  type: 'BroadcastHandedOff',
  data: { broadcastId, handedCount: 1, skippedCount: 1, handedOffAt: at.toISOString() },
};
const handOff = { broadcastId, handedCount: 1, skippedCount: 1, at };

const { given } = deciderSpec(broadcastEvolution);

describe('broadcast decider', () => {
  it('records who sent which subjects to whom, and how many were reached and left out when it was sent', () => {
    expect(sent).toEqual({
      type: 'BroadcastSent',
      data: {
        broadcastId,
        subjectHe: 'תחזוקה הלילה',
        subjectEn: 'Maintenance tonight',
        filter: { statuses: ['ACTIVE'] },
        recipientCount: 2,
        queuedCount: 1,
        skippedCount: 1,
        actorId: admin,
        sentAt: at.toISOString(),
      },
    });
  });

  it('is sent once: a second send of the same broadcast records nothing', () => {
    given([sent])
      .when((state) => sendBroadcast(send, state))
      .then([]);
  });

  it('records the hand-off of its last recipient with the counts', () => {
    given([sent])
      .when((state) => recordHandOff(handOff, state))
      .then([handedOff]);
  });

  it('records the hand-off once, however many passes find it finished', () => {
    given([sent, handedOff])
      .when((state) => recordHandOff(handOff, state))
      .then([]);
  });

  it('records nothing for a broadcast sent before broadcasts had streams', () => {
    given([])
      .when((state) => recordHandOff(handOff, state))
      .then([]);
  });
});
