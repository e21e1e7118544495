import type { BulkEvent } from '@kupa/proto';
import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import { bulkBatchEvolution, settleBulkTarget, settleBulkTargets, startBulkBatch } from './bulk-batch.decider';

const batchId = '55555555-5555-4555-8555-555555555555';
const admin = '99999999-9999-4999-8999-999999999999';
const dana = '11111111-1111-4111-8111-111111111111';
const omer = '22222222-2222-4222-8222-222222222222';
const at = new Date('2026-11-29T10:00:00.000Z');

const start = (overrides: Partial<Parameters<typeof startBulkBatch>[0]> = {}) =>
  startBulkBatch(
    {
      batchId,
      action: 'GOODWILL_CREDIT',
      filter: { status: 'ACTIVE' },
      targetCount: 2,
      reason: 'Outage of 28 Nov',
      publicNote: 'Sorry for the outage',
      amountMinor: 500,
      days: null,
      actorId: admin,
      at,
      ...overrides,
    },
    null,
  );
const [started] = start();
const done = (targetId: string, resultRef: string | null = null): BulkEvent => ({
  type: 'BulkTargetDone',
  data: { batchId, targetId, resultRef, doneAt: at.toISOString() },
});
const failed = (targetId: string, error: string): BulkEvent => ({
  type: 'BulkTargetFailed',
  data: { batchId, targetId, error, failedAt: at.toISOString() },
});
const completed = (doneCount: number, failedCount: number): BulkEvent => ({
  type: 'BulkBatchCompleted',
  data: { batchId, doneCount, failedCount, completedAt: at.toISOString() },
});

const { given } = deciderSpec(bulkBatchEvolution);

describe('bulk batch decider', () => {
  describe('starting', () => {
    it('records the action, the selection, the frozen count, the reason and who asked', () => {
      expect(started).toEqual({
        type: 'BulkBatchStarted',
        data: {
          batchId,
          action: 'GOODWILL_CREDIT',
          targetKind: 'CLIENT',
          filter: { status: 'ACTIVE' },
          targetCount: 2,
          reason: 'Outage of 28 Nov',
          publicNote: 'Sorry for the outage',
          amountMinor: 500,
          days: null,
          actorId: admin,
          startedAt: at.toISOString(),
        },
      });
    });

    it('adding days works on subscriptions', () => {
      const [event] = start({ action: 'ADD_DAYS', amountMinor: null, days: 2 });
      expect(event.type === 'BulkBatchStarted' && event.data.targetKind).toBe('SUBSCRIPTION');
    });

    it('starts once: a second start of the same batch records nothing', () => {
      given([started])
        .when((state) =>
          startBulkBatch(
            {
              batchId,
              action: 'BLOCK',
              filter: {},
              targetCount: 5,
              reason: 'again',
              publicNote: null,
              amountMinor: null,
              days: null,
              actorId: admin,
              at,
            },
            state,
          ),
        )
        .then([]);
    });

    it('refuses a selection that matches nobody', () => {
      expect(() => start({ targetCount: 0 })).toThrow(expect.objectContaining({ code: 'error.bulk.no.targets' }));
    });

    it('refuses a selection beyond the limit', () => {
      expect(() => start({ targetCount: 20_001 })).toThrow(
        expect.objectContaining({ code: 'error.bulk.too.many.targets', details: { max: 20_000 } }),
      );
    });

    it('a goodwill credit without an amount is a bug the request validation stops first', () => {
      expect(() => start({ amountMinor: null })).toThrow(/carries an amount/);
    });
  });

  describe('settling targets', () => {
    it('records each target done, with what the action made', () => {
      given([started])
        .when((state) => settleBulkTarget({ targetId: dana, outcome: 'DONE', resultRef: '41', at }, state))
        .then([done(dana, '41')]);
    });

    it('records a refusal and goes on', () => {
      given([started])
        .when((state) =>
          settleBulkTarget({ targetId: dana, outcome: 'FAILED', error: 'error.user.not.found', at }, state),
        )
        .then([failed(dana, 'error.user.not.found')]);
    });

    it('completes with the last target, counting the done and the failed', () => {
      given([started, failed(dana, 'error.user.not.found')])
        .when((state) => settleBulkTarget({ targetId: omer, outcome: 'DONE', resultRef: null, at }, state))
        .then([done(omer), completed(1, 1)]);
    });

    it('an unknown batch is not found', () => {
      given([])
        .when((state) => settleBulkTarget({ targetId: dana, outcome: 'DONE', resultRef: null, at }, state))
        .thenRejects('error.bulk.batch.not.found');
    });
  });

  describe('resuming after a crash', () => {
    it('a target reported again after the runner restarted is not settled twice', () => {
      given([started, done(dana, '41')])
        .when((state) => settleBulkTarget({ targetId: dana, outcome: 'DONE', resultRef: '41', at }, state))
        .then([]);
    });

    it('nor is a failed one turned into a success', () => {
      given([started, failed(dana, 'error.user.not.found')])
        .when((state) => settleBulkTarget({ targetId: dana, outcome: 'DONE', resultRef: null, at }, state))
        .then([]);
    });

    it('a resumed run over every target, settled ones included, ends with each target once', () => {
      let history: BulkEvent[] = [started, done(dana)];
      for (const targetId of [dana, omer, dana, omer]) {
        history = [
          ...history,
          ...settleBulkTarget({ targetId, outcome: 'DONE', resultRef: null, at }, fold(bulkBatchEvolution, history)),
        ];
      }
      expect(history).toEqual([started, done(dana), done(omer), completed(2, 0)]);
      expect(fold(bulkBatchEvolution, history)?.completed).toBe(true);
    });
  });
});

describe('settling a chunk', () => {
  it('settles each target once even when the chunk names one twice, and completes with the last', () => {
    given([started])
      .when((state) =>
        settleBulkTargets(
          [
            { targetId: dana, outcome: 'DONE', resultRef: null, at },
            { targetId: dana, outcome: 'DONE', resultRef: null, at },
            { targetId: omer, outcome: 'FAILED', error: 'error.user.not.found', at },
          ],
          state,
        ),
      )
      .then([done(dana), failed(omer, 'error.user.not.found'), completed(1, 1)]);
  });
});
