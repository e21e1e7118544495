import { type DepositClaim } from '@kupa/proto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { DepositClaimsPage } from './deposit-claims-page';

const DANA = '11111111-1111-4111-8111-111111111111';
const OPEN: DepositClaim = {
  claimId: '22222222-2222-4222-8222-222222222222',
  userUuid: DANA,
  amount: 250,
  currency: 'USD',
  reference: '24681357',
  note: 'Bank Leumi',
  status: 'OPEN',
  paymentId: null,
  reasonText: null,
  claimedAt: '2026-11-30T10:00:00.000Z',
  closedAt: null,
  clientName: 'Dana Cohen',
};
const OTHER: DepositClaim = { ...OPEN, claimId: '33333333-3333-4333-8333-333333333333', amount: 40, note: null };

describe('transfer claims page', () => {
  it('lists the open claims and settles one with the manual deposit, the amount prefilled', async () => {
    signInAs('ADMIN');
    let claims = [OPEN, OTHER];
    const { calls } = mockFetch({
      'GET /api/deposit-claims': () => json(200, claims),
      'POST /api/payments': () => {
        claims = [{ ...OPEN, status: 'SETTLED', paymentId: 77, closedAt: '2026-11-30T11:00:00.000Z' }, OTHER];
        return json(201, { paymentId: 77 });
      },
    });
    const user = userEvent.setup();
    renderInAdmin(<DepositClaimsPage />, { withAuth: true, lang: 'en' });

    const row = await screen.findByTestId(`deposit-claim-${OPEN.claimId}`);
    expect(row).toHaveTextContent('Dana Cohen');
    expect(row).toHaveTextContent('24681357');
    expect(row).toHaveTextContent('$250.00');
    expect(row).toHaveTextContent('Bank Leumi');
    await user.click(await screen.findByTestId(`deposit-claim-settle-${OPEN.claimId}`));
    expect(screen.getByTestId('deposit-claim-amount')).toHaveValue(250);
    await user.type(screen.getByTestId('deposit-claim-text'), 'Seen on the Leumi statement');
    await user.click(screen.getByTestId('deposit-claim-submit'));

    await waitFor(() => expect(screen.getByTestId(`deposit-claim-${OPEN.claimId}`)).toHaveTextContent('Settled'));
    const post = calls.find((call) => call.method === 'POST' && call.url === '/api/payments');
    expect(post?.body).toEqual({
      userUuid: DANA,
      action: 'DEPOSIT',
      amount: 250,
      comment: 'Seen on the Leumi statement',
      claimId: OPEN.claimId,
    });
  });

  it('lets a manager reject with a reason, and offers no settle to a manager', async () => {
    signInAs('MANAGER');
    const { calls } = mockFetch({
      'GET /api/deposit-claims': () => json(200, [OPEN]),
      [`POST /api/deposit-claims/${OPEN.claimId}/rejection`]: () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    renderInAdmin(<DepositClaimsPage />, { withAuth: true, lang: 'en' });

    await screen.findByTestId(`deposit-claim-${OPEN.claimId}`);
    expect(screen.queryByTestId(`deposit-claim-settle-${OPEN.claimId}`)).toBeNull();
    await user.click(screen.getByTestId(`deposit-claim-reject-${OPEN.claimId}`));
    expect(screen.getByTestId('deposit-claim-submit')).toBeDisabled();
    await user.type(screen.getByTestId('deposit-claim-text'), 'No transfer arrived');
    await user.click(screen.getByTestId('deposit-claim-submit'));
    await waitFor(() =>
      expect(calls.find((call) => call.url === `/api/deposit-claims/${OPEN.claimId}/rejection`)?.body).toEqual({
        reason: 'No transfer arrived',
      }),
    );
  });
});
