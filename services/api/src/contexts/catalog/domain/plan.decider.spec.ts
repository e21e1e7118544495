import { LIMITS, minorToAmount, parsePlanPriceToMinor } from '@kupa/proto';
import fc from 'fast-check';
import { deciderSpec } from '../../../test-support/decider-spec';
import { changePlanStatus, createPlan, deletePlan, planEvolution, planForSale, updatePlan } from './plan.decider';
import { fold } from '../../../kernel';
import { PAYMENT_PLAN_EVENT_SCHEMAS, type PaymentPlanEvent, type PaymentPlanTerms } from './plan.events';

const at = new Date('2026-04-01T10:00:00Z');
const planId = '44444444-4444-4444-8444-444444444444';
const terms: PaymentPlanTerms = {
  name: 'Gold',
  durationInMonths: 3,
  priceMinor: 2999,
  currency: 'USD',
  isRecurrent: true,
  description: 'Every channel',
  features: ['HD', 'Two screens'],
  cardPaymentAllowed: true,
  nameEn: '',
  descriptionEn: '',
};

const created: PaymentPlanEvent = {
  type: 'PaymentPlanCreated',
  data: { planId, ...terms, status: 'ACTIVE', createdAt: at.toISOString() },
};
const deactivated: PaymentPlanEvent = {
  type: 'PaymentPlanStatusChanged',
  data: { planId, previousStatus: 'ACTIVE', status: 'INACTIVE' },
};
const deleted: PaymentPlanEvent = {
  type: 'PaymentPlanDeleted',
  data: { planId, deletedAt: '2026-03-02T00:00:00.000Z' },
};

const { given } = deciderSpec(planEvolution);

/** The update command as an admin sends it, with the facts the handler reads under the plan's lock. */
const update = (
  changes: Partial<PaymentPlanTerms>,
  facts: { referenced?: boolean; status?: 'ACTIVE' | 'INACTIVE' } = {},
) => ({
  terms: { ...terms, ...changes },
  status: facts.status ?? ('ACTIVE' as const),
  referenced: facts.referenced ?? false,
  nameTaken: false,
});

describe('plan decider', () => {
  describe('CreatePlan', () => {
    const create = { planId, terms, status: 'ACTIVE' as const, nameTaken: false, at };

    it('creates a plan with its terms, status and instant', () => {
      given([])
        .when((state) => createPlan(create, state))
        .then([created]);
    });

    it('creates an inactive plan when asked to', () => {
      given([])
        .when((state) => createPlan({ ...create, status: 'INACTIVE' }, state))
        .then([{ type: 'PaymentPlanCreated', data: { ...created.data, status: 'INACTIVE' } } as PaymentPlanEvent]);
    });

    it('refuses a name another plan has', () => {
      given([])
        .when((state) => createPlan({ ...create, nameTaken: true }, state))
        .thenRejects('error.payment.plan.already.exists', { field: 'name' });
    });

    it('refuses to create a plan twice, or again after its deletion', () => {
      given([created])
        .when((state) => createPlan(create, state))
        .thenRejects('error.payment.plan.already.exists');
      given([created, deleted])
        .when((state) => createPlan(create, state))
        .thenRejects('error.payment.plan.already.exists');
    });

    it('refuses terms outside the limits, naming the field', () => {
      given([])
        .when((state) => createPlan({ ...create, terms: { ...terms, durationInMonths: 6 as 3 } }, state))
        .thenRejects('error.validation.invalid.field', { field: 'durationInMonths' });
      given([])
        .when((state) =>
          createPlan({ ...create, terms: { ...terms, priceMinor: LIMITS.planPriceMaxMinor + 1 } }, state),
        )
        .thenRejects('error.validation.max', { field: 'priceMinor', max: 99999.99 });
      given([])
        .when((state) => createPlan({ ...create, terms: { ...terms, name: ' ' } }, state))
        .thenRejects('error.validation.blank', { field: 'name' });
    });
  });

  describe('UpdatePlan', () => {
    it('records the new terms when they differ', () => {
      given([created])
        .when((state) => updatePlan(update({ priceMinor: 3499, features: ['HD'] }), state))
        .then([{ type: 'PaymentPlanUpdated', data: { planId, ...terms, priceMinor: 3499, features: ['HD'] } }]);
    });

    it('records nothing when nothing changes', () => {
      given([created])
        .when((state) => updatePlan(update({}), state))
        .then([]);
    });

    it('records a different status as a status change, after the terms', () => {
      given([created])
        .when((state) => updatePlan(update({ name: 'Platinum' }, { status: 'INACTIVE' }), state))
        .then([
          { type: 'PaymentPlanUpdated', data: { planId, ...terms, name: 'Platinum' } },
          { type: 'PaymentPlanStatusChanged', data: { planId, previousStatus: 'ACTIVE', status: 'INACTIVE' } },
        ]);
    });

    describe('of a plan a subscription refers to', () => {
      it('refuses a new price', () => {
        given([created])
          .when((state) => updatePlan(update({ priceMinor: 3499 }, { referenced: true }), state))
          .thenRejects('error.payment.plan.cannot.be.modified');
      });

      it('refuses a new duration', () => {
        given([created])
          .when((state) => updatePlan(update({ durationInMonths: 12 }, { referenced: true }), state))
          .thenRejects('error.payment.plan.cannot.be.modified');
      });

      it('takes a new name, description, features, recurrence and status', () => {
        const changes = { name: 'Gold 2026', description: 'Renamed', features: ['4K'], isRecurrent: false };
        given([created])
          .when((state) => updatePlan(update(changes, { referenced: true, status: 'INACTIVE' }), state))
          .then([
            { type: 'PaymentPlanUpdated', data: { planId, ...terms, ...changes } },
            { type: 'PaymentPlanStatusChanged', data: { planId, previousStatus: 'ACTIVE', status: 'INACTIVE' } },
          ]);
      });
    });

    it('takes a new price and duration on a plan nothing refers to', () => {
      given([created])
        .when((state) => updatePlan(update({ priceMinor: 100, durationInMonths: 1 }, { referenced: false }), state))
        .then([{ type: 'PaymentPlanUpdated', data: { planId, ...terms, priceMinor: 100, durationInMonths: 1 } }]);
    });

    it('refuses a name another plan has', () => {
      given([created])
        .when((state) => updatePlan({ ...update({ name: 'Silver' }), nameTaken: true }, state))
        .thenRejects('error.payment.plan.already.exists', { field: 'name' });
    });

    it('refuses a missing or deleted plan', () => {
      given([])
        .when((state) => updatePlan(update({}), state))
        .thenRejects('error.payment.plan.not.found');
      given([created, deleted])
        .when((state) => updatePlan(update({}), state))
        .thenRejects('error.payment.plan.not.found');
    });

    it('refuses terms outside the limits', () => {
      given([created])
        .when((state) => updatePlan(update({ features: Array.from({ length: 21 }, () => 'HD') }), state))
        .thenRejects('error.validation.max.items', { field: 'features', maxItems: 20 });
    });
  });

  describe('ChangePlanStatus', () => {
    it('deactivates and activates again', () => {
      given([created])
        .when((state) => changePlanStatus({ status: 'INACTIVE' }, state))
        .then([deactivated]);
      given([created, deactivated])
        .when((state) => changePlanStatus({ status: 'ACTIVE' }, state))
        .then([{ type: 'PaymentPlanStatusChanged', data: { planId, previousStatus: 'INACTIVE', status: 'ACTIVE' } }]);
    });

    it('records nothing for the status the plan already has', () => {
      given([created, deactivated])
        .when((state) => changePlanStatus({ status: 'INACTIVE' }, state))
        .then([]);
    });

    it('refuses a missing or deleted plan', () => {
      given([])
        .when((state) => changePlanStatus({ status: 'ACTIVE' }, state))
        .thenRejects('error.payment.plan.not.found');
      given([created, deleted])
        .when((state) => changePlanStatus({ status: 'ACTIVE' }, state))
        .thenRejects('error.payment.plan.not.found');
    });
  });

  describe('DeletePlan', () => {
    it('deletes a plan nothing refers to, active or not', () => {
      given([created])
        .when((state) => deletePlan({ referenced: false, at: new Date('2026-03-02T00:00:00Z') }, state))
        .then([deleted]);
      given([created, deactivated])
        .when((state) => deletePlan({ referenced: false, at: new Date('2026-03-02T00:00:00Z') }, state))
        .then([deleted]);
    });

    it('refuses to delete a plan a subscription refers to', () => {
      given([created, deactivated])
        .when((state) => deletePlan({ referenced: true, at }, state))
        .thenRejects('error.payment.plan.cannot.be.deleted');
    });

    it('refuses a missing plan, or one already deleted', () => {
      given([])
        .when((state) => deletePlan({ referenced: false, at }, state))
        .thenRejects('error.payment.plan.not.found');
      given([created, deleted])
        .when((state) => deletePlan({ referenced: false, at }, state))
        .thenRejects('error.payment.plan.not.found');
    });
  });

  describe('planForSale', () => {
    it('sells an ACTIVE package with its terms', () => {
      expect(planForSale(fold(planEvolution, [created]))).toEqual({ planId, ...terms });
    });

    it('refuses an INACTIVE package, and a missing or deleted one', () => {
      expect(() => planForSale(fold(planEvolution, [created, deactivated]))).toThrow('error.payment.plan.not.active');
      expect(() => planForSale(fold(planEvolution, []))).toThrow('error.payment.plan.not.found');
      expect(() => planForSale(fold(planEvolution, [created, deleted]))).toThrow('error.payment.plan.not.found');
    });
  });

  describe('price limits', () => {
    it('accepts exactly the dollar prices from a cent to 99999.99 with at most two decimals, in cents', () => {
      const cents = fc.integer({ min: -1_000_000, max: LIMITS.planPriceMaxMinor + 1_000_000 });
      fc.assert(
        fc.property(cents, fc.constantFrom(0, 0.001, 0.004), (priceMinor, offset) => {
          const price = minorToAmount(priceMinor) + offset;
          const parsed = parsePlanPriceToMinor(price);
          const valid = offset === 0 && priceMinor >= 1 && priceMinor <= LIMITS.planPriceMaxMinor;
          expect(parsed.ok).toBe(valid);
          if (!parsed.ok) return;
          expect(parsed.amountMinor).toBe(priceMinor);
          const decided = createPlan(
            { planId, terms: { ...terms, priceMinor: parsed.amountMinor }, status: 'ACTIVE', nameTaken: false, at },
            planEvolution.initialState(),
          );
          expect(decided).toHaveLength(1);
          expect(minorToAmount((decided[0].data as PaymentPlanTerms).priceMinor)).toBe(price);
        }),
        { seed: 20_260_401, numRuns: 2000 },
      );
    });

    it('refuses any price in cents outside the limits at the domain level too', () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.integer({ max: 0 }),
            fc.integer({ min: LIMITS.planPriceMaxMinor + 1 }),
            fc.double({ noInteger: true }),
          ),
          (priceMinor) => {
            expect(() =>
              createPlan(
                { planId, terms: { ...terms, priceMinor }, status: 'ACTIVE', nameTaken: false, at },
                planEvolution.initialState(),
              ),
            ).toThrow();
          },
        ),
        { seed: 20_260_402, numRuns: 500 },
      );
    });
  });

  describe('card sale (schema version 2)', () => {
    it('reads packages stored before card checkout as for sale by card', () => {
      const { cardPaymentAllowed: _dropped, ...storedV1 } = { planId, ...terms, status: 'ACTIVE', createdAt: at };
      for (const type of ['PaymentPlanCreated', 'PaymentPlanUpdated'] as const) {
        const schema = PAYMENT_PLAN_EVENT_SCHEMAS[type];
        expect(schema?.upcasters[1](storedV1)).toEqual({ ...storedV1, cardPaymentAllowed: true });
      }
    });

    it('records a change of the card flag alone as an update, and planForSale carries it', () => {
      const plan = fold(planEvolution, [created]);
      const events = updatePlan(
        { terms: { ...terms, cardPaymentAllowed: false }, status: 'ACTIVE', referenced: true, nameTaken: false },
        plan,
      );
      expect(events).toEqual([{ type: 'PaymentPlanUpdated', data: { planId, ...terms, cardPaymentAllowed: false } }]);
      expect(planForSale(fold(planEvolution, [created, ...events])).cardPaymentAllowed).toBe(false);
    });
  });

  describe('English texts (schema version 3)', () => {
    it('reads packages stored before English texts as having none, after the card flag', () => {
      const { nameEn: _name, descriptionEn: _description, ...storedV2 } = { planId, ...terms, status: 'ACTIVE' };
      for (const type of ['PaymentPlanCreated', 'PaymentPlanUpdated'] as const) {
        const schema = PAYMENT_PLAN_EVENT_SCHEMAS[type];
        expect(schema?.schemaVersion).toBe(3);
        expect(schema?.upcasters[2](storedV2)).toEqual({ ...storedV2, nameEn: '', descriptionEn: '' });
      }
    });

    it('creates a plan with English texts beside the Hebrew ones', () => {
      const bilingual = { ...terms, name: 'זהב', nameEn: 'Gold', descriptionEn: 'Every channel, in English' };
      given([])
        .when((state) => createPlan({ planId, terms: bilingual, status: 'ACTIVE', nameTaken: false, at }, state))
        .then([{ type: 'PaymentPlanCreated', data: { ...created.data, ...bilingual } } as PaymentPlanEvent]);
    });

    it('records a change of the English texts alone as an update, even on a plan clients bought', () => {
      given([created])
        .when((state) =>
          updatePlan(update({ nameEn: 'Gold', descriptionEn: 'All of it' }, { referenced: true }), state),
        )
        .then([{ type: 'PaymentPlanUpdated', data: { planId, ...terms, nameEn: 'Gold', descriptionEn: 'All of it' } }]);
      given([created])
        .when((state) => updatePlan(update({}), state))
        .then([]);
    });

    it('refuses an English name or description over the limits, naming the field', () => {
      given([])
        .when((state) =>
          createPlan(
            {
              planId,
              terms: { ...terms, nameEn: 'x'.repeat(LIMITS.planNameMaxLength + 1) },
              status: 'ACTIVE',
              nameTaken: false,
              at,
            },
            state,
          ),
        )
        .thenRejects('error.validation.max.length', { field: 'nameEn', max: LIMITS.planNameMaxLength });
      given([created])
        .when((state) => updatePlan(update({ descriptionEn: 'x'.repeat(LIMITS.planDescriptionMaxLength + 1) }), state))
        .thenRejects('error.validation.max.length', { field: 'descriptionEn', max: LIMITS.planDescriptionMaxLength });
    });
  });
});
