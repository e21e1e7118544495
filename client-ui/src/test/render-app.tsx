import { render } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import { vi } from 'vitest';
import {
  DEFAULT_AMBASSADOR_BONUS_TIERS,
  DEFAULT_REFERRAL_DISCOUNT_TIERS,
  type Dictionaries,
  type Page,
  type Payment,
  type Plan,
  type RewardTierTables,
  PUBLIC_STAFF_ACTOR_NAME,
  type SignInResponse,
  type Subscription,
  type SupportContacts,
  type User,
} from '@kupa/proto';
import { App } from '../app/app';
import { PENDING_DEPOSITS } from '../features/payments/deposit-watcher';
import { createQueryClient } from '../lib/api/query-client';
import { useUserStore } from '../lib/stores/user-store';

/** Renders the whole app (router, query client, theme, toasts) at a path, on an in-memory history. */
export function renderApp(path: string) {
  const queryClient = createQueryClient();
  const history = createMemoryHistory({ initialEntries: [path] });
  const view = render(<App queryClient={queryClient} history={history} />);
  return { ...view, history, queryClient };
}

export interface RecordedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export type FetchHandler = (call: RecordedCall) => Response | Promise<Response>;

export function jsonResponse(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
  });
}

export function errorResponse(status: number, error: string, message = error): Response {
  return jsonResponse(status, { status, error, message });
}

/** A promise the test settles by hand, to hold one answer back. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/**
 * Replaces `fetch`, the network edge, with a handler and records every call the app makes, with its parsed body.
 */
export function mockFetch(handler: FetchHandler) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const call: RecordedCall = {
      url: String(input),
      method: init.method ?? 'GET',
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    return handler(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export const CLIENT_SESSION: SignInResponse = {
  accessToken: 'access-1',
  userUuid: '2f1c6a8e-0000-4000-8000-000000000001',
  email: 'dana@example.com',
  userRole: 'CLIENT',
};

export function signInAs(session: Partial<SignInResponse> = {}): void {
  useUserStore.getState().signIn({ ...CLIENT_SESSION, ...session });
}

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    userUuid: CLIENT_SESSION.userUuid,
    email: CLIENT_SESSION.email,
    firstName: 'Dana',
    lastName: 'Levi',
    fullName: 'Dana Levi',
    role: 'CLIENT',
    status: 'ACTIVE',
    balance: 1234.5,
    profileId: '12345678',
    userCreatedAt: '2026-01-15T10:00:00.000Z',
    trialUsed: false,
    trialRejected: false,
    twoFactorEnabled: false,
    language: 'he',
    referrals: {
      profileId: '12345678',
      link: 'http://localhost:3000/sign-up?ref=12345678',
      totalReferrals: 3,
      activeReferrals: 2,
      discountPercent: 10,
    },
    ...overrides,
  };
}

export function makePayment(overrides: Partial<Payment> = {}): Payment {
  return {
    paymentId: 101,
    userUuid: CLIENT_SESSION.userUuid,
    userEmail: CLIENT_SESSION.email,
    amount: 50,
    currency: 'USD',
    status: 'SUCCESS',
    method: 'MANUAL_TRANSFER',
    type: 'DEPOSIT',
    aggregator: 'MANUAL',
    publicNote: null,
    senderProfileId: null,
    recipientProfileId: null,
    discountPercent: 0,
    transferId: null,
    bonusPaymentId: null,
    bonusForPaymentId: null,
    createdAt: '2026-02-01T09:30:00.000Z',
    // A client reads staff and the system as Kupa, and never the internal comment (docs/api.md, Ledger).
    createdBy: PUBLIC_STAFF_ACTOR_NAME,
    updatedAt: '2026-02-01T09:30:00.000Z',
    updatedBy: PUBLIC_STAFF_ACTOR_NAME,
    ...overrides,
  };
}

/** One page of a search answer, shaped like the API's `Page<T>`. */
export function pageOf<T>(content: T[], page = 0, size = 20, totalElements = content.length): Page<T> {
  return { content, page, size, totalElements, totalPages: Math.ceil(totalElements / size) };
}

/** Support contacts as a deployment configures them (`SUPPORT_TELEGRAM`, `SUPPORT_EMAIL`). */
export const SUPPORT_CONTACTS: SupportContacts = {
  telegram: 'https://t.me/kupa_help',
  email: 'help@kupa.example',
};

/** `GET /dictionaries` as the screens read it: the support contacts and the reward tiers matter to the client app. */
export function makeDictionaries(
  support: SupportContacts = SUPPORT_CONTACTS,
  rewardTiers: RewardTierTables = {
    referralDiscount: [...DEFAULT_REFERRAL_DISCOUNT_TIERS],
    ambassadorBonus: [...DEFAULT_AMBASSADOR_BONUS_TIERS],
  },
): Dictionaries {
  return { enums: {}, limits: {}, support, rewardTiers };
}

export function makePlan(overrides: Partial<Plan> = {}): Plan {
  return {
    id: '7b0c3a52-0000-4000-8000-00000000aa01',
    name: 'Monthly HD',
    durationInMonths: 1,
    price: 20,
    currency: 'USD',
    isRecurrent: true,
    description: 'Every channel in HD',
    features: ['HD quality', 'Two screens'],
    status: 'ACTIVE',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function makeSubscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: '5d2e8f10-0000-4000-8000-0000000000b1',
    userUuid: CLIENT_SESSION.userUuid,
    userEmail: CLIENT_SESSION.email,
    paymentPlan: { planId: makePlan().id, planName: 'Monthly HD' },
    price: 18,
    currency: 'USD',
    status: 'ACTIVE',
    type: 'REGULAR',
    durationInMonth: 1,
    isRecurrent: true,
    cancelAtPeriodEnd: false,
    nextPaymentDate: '2026-03-12T10:00:00.000Z',
    renewalFunding: 'BALANCE',
    login: 'dana.levi',
    startDate: '2026-02-15T10:00:00.000Z',
    endDate: '2026-03-15T10:00:00.000Z',
    graceEndsAt: null,
    createdAt: '2026-02-15T09:59:00.000Z',
    createdBy: CLIENT_SESSION.email,
    updatedAt: '2026-02-15T10:00:00.000Z',
    updatedBy: CLIENT_SESSION.email,
    ...overrides,
  };
}

/** The app-wide watch of pending deposits (`DepositWatcher`): a search every screen sends, that tests may set aside. */
export function isDepositWatch(call: RecordedCall): boolean {
  return call.url === '/api/payments/search' && JSON.stringify(call.body) === JSON.stringify(PENDING_DEPOSITS);
}
