import type { SavedCardEvent } from '@kupa/proto';
import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import {
  type CompletedCardSetup,
  recordCardCustomer,
  removeCard,
  saveCard,
  savedCardEvolution,
} from './saved-card.decider';

const userUuid = '11111111-1111-4111-8111-111111111111';
const at = new Date('2026-03-01T09:00:00Z');

const customerCreated: SavedCardEvent = {
  type: 'CardCustomerCreated',
  data: { userUuid, provider: 'STRIPE', customerId: 'cus_1', createdAt: '2026-03-01T08:00:00.000Z' },
};

const setup = (checkoutSessionId: string, openedAt: string, paymentMethodId: string): CompletedCardSetup => ({
  checkoutSessionId,
  customerId: 'cus_1',
  openedAt: new Date(openedAt),
  paymentMethod: { paymentMethodId, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 },
});

const saved = (
  checkoutSessionId: string,
  setupOpenedAt: string,
  paymentMethodId: string,
  replacedPaymentMethodId: string | null = null,
): SavedCardEvent => ({
  type: 'CardSaved',
  data: {
    userUuid,
    checkoutSessionId,
    paymentMethodId,
    brand: 'visa',
    last4: '4242',
    expMonth: 12,
    expYear: 2034,
    setupOpenedAt: new Date(setupOpenedAt).toISOString(),
    replacedPaymentMethodId,
    savedAt: at.toISOString(),
  },
});

const removed = (paymentMethodId: string): SavedCardEvent => ({
  type: 'CardRemoved',
  data: { userUuid, paymentMethodId, removedAt: at.toISOString() },
});

const { given } = deciderSpec(savedCardEvolution);

describe('saved card decider (docs/adr/0085-saved-cards.md)', () => {
  describe('the customer', () => {
    it('is recorded once and kept', () => {
      given([])
        .when((state) =>
          recordCardCustomer(
            { userUuid, provider: 'STRIPE', customerId: 'cus_1', at: new Date(customerCreated.data.createdAt) },
            state,
          ),
        )
        .then([customerCreated]);
      given([customerCreated])
        .when((state) => recordCardCustomer({ userUuid, provider: 'STRIPE', customerId: 'cus_2', at }, state))
        .then([]);
    });
  });

  describe('saving', () => {
    it("records the card a setup of the client's customer saved: brand, last4, expiry", () => {
      given([customerCreated])
        .when((state) => saveCard({ userUuid, setup: setup('cs_1', '2026-03-01T08:30:00Z', 'pm_1'), at }, state))
        .then([saved('cs_1', '2026-03-01T08:30:00Z', 'pm_1')]);
      expect(
        fold(savedCardEvolution, [customerCreated, saved('cs_1', '2026-03-01T08:30:00Z', 'pm_1')]).card,
      ).toMatchObject({ paymentMethodId: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 });
    });

    it('records a repeated or late webhook of the same setup once, even after the card was removed', () => {
      const first = saved('cs_1', '2026-03-01T08:30:00Z', 'pm_1');
      given([customerCreated, first])
        .when((state) => saveCard({ userUuid, setup: setup('cs_1', '2026-03-01T08:30:00Z', 'pm_1'), at }, state))
        .then([]);
      given([customerCreated, first, removed('pm_1')])
        .when((state) => saveCard({ userUuid, setup: setup('cs_1', '2026-03-01T08:30:00Z', 'pm_1'), at }, state))
        .then([]);
    });

    it('keeps one card: a newer setup replaces it, an older one arriving late does not', () => {
      const older = saved('cs_1', '2026-03-01T08:30:00Z', 'pm_1');
      given([customerCreated, older])
        .when((state) => saveCard({ userUuid, setup: setup('cs_2', '2026-03-01T08:40:00Z', 'pm_2'), at }, state))
        .then([saved('cs_2', '2026-03-01T08:40:00Z', 'pm_2', 'pm_1')]);
      const newer = saved('cs_2', '2026-03-01T08:40:00Z', 'pm_2');
      given([customerCreated, newer])
        .when((state) => saveCard({ userUuid, setup: setup('cs_1', '2026-03-01T08:30:00Z', 'pm_1'), at }, state))
        .then([]);
    });

    it('saves a card again after the card was removed, whenever its setup was opened', () => {
      given([customerCreated, saved('cs_2', '2026-03-01T08:40:00Z', 'pm_2'), removed('pm_2')])
        .when((state) => saveCard({ userUuid, setup: setup('cs_1', '2026-03-01T08:30:00Z', 'pm_1'), at }, state))
        .then([saved('cs_1', '2026-03-01T08:30:00Z', 'pm_1')]);
    });

    it("records nothing for a setup of another customer, or before the client's customer exists", () => {
      given([customerCreated])
        .when((state) =>
          saveCard(
            { userUuid, setup: { ...setup('cs_1', '2026-03-01T08:30:00Z', 'pm_1'), customerId: 'cus_other' }, at },
            state,
          ),
        )
        .then([]);
      given([])
        .when((state) => saveCard({ userUuid, setup: setup('cs_1', '2026-03-01T08:30:00Z', 'pm_1'), at }, state))
        .then([]);
    });
  });

  describe('removing', () => {
    it('removes the card, and refuses when there is none', () => {
      given([customerCreated, saved('cs_1', '2026-03-01T08:30:00Z', 'pm_1')])
        .when((state) => removeCard({ userUuid, at }, state))
        .then([removed('pm_1')]);
      given([customerCreated, saved('cs_1', '2026-03-01T08:30:00Z', 'pm_1'), removed('pm_1')])
        .when((state) => removeCard({ userUuid, at }, state))
        .thenRejects('error.card.not.saved');
      given([])
        .when((state) => removeCard({ userUuid, at }, state))
        .thenRejects('error.card.not.saved');
    });
  });
});
