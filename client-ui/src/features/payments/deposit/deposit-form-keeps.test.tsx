import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLangStore } from '../../../lib/stores/lang-store';
import {
  jsonResponse,
  makeDictionaries,
  makeUser,
  mockFetch,
  pageOf,
  renderApp,
  signInAs,
  SUPPORT_CONTACTS,
} from '../../../test/render-app';

// The deployment's own tiers, unlike proto's defaults, so the preview is seen to follow what the server books with.
const TIERS = {
  referralDiscount: [{ minActiveReferrals: 1, percent: 5 }],
  ambassadorBonus: [
    { minDepositMinor: 10_000, percent: 7 },
    { minDepositMinor: 30_000, percent: 12 },
  ],
};

function mockApi(role: 'CLIENT' | 'AMBASSADOR') {
  return mockFetch(({ url }) => {
    if (url === '/api/dictionaries') return jsonResponse(200, makeDictionaries(SUPPORT_CONTACTS, TIERS));
    if (url === '/api/payments/crypto/options')
      return jsonResponse(200, { minAmount: 10, maxAmount: 1000, methods: ['CRYPTO_BTC'], provider: 'SANDBOX' });
    if (url.startsWith('/api/payments/search') || url === '/api/payment-plans/search')
      return jsonResponse(200, pageOf([]));
    return jsonResponse(200, makeUser({ role, profileId: '24681357' }));
  });
}

describe('the deposit form keeps what was typed', () => {
  it('keeps the amount when the method switches to crypto and back', async () => {
    signInAs();
    mockApi('CLIENT');
    const user = userEvent.setup();
    renderApp('/payments/deposit');
    await user.type(await screen.findByTestId('deposit-amount'), '120.50');

    await user.click(screen.getByTestId('deposit-method-crypto'));
    expect(await screen.findByTestId('crypto-amount')).toHaveValue('120.50');
    await user.click(screen.getByTestId('deposit-method-manual'));
    expect(await screen.findByTestId('deposit-amount')).toHaveValue('120.50');
  });

  it('shows no bonus preview to a client', async () => {
    signInAs();
    mockApi('CLIENT');
    const user = userEvent.setup();
    renderApp('/payments/deposit');
    await user.type(await screen.findByTestId('deposit-amount'), '400');
    expect(screen.queryByTestId('deposit-bonus-preview')).not.toBeInTheDocument();
  });

  it("previews an ambassador's bonus with the deployment's tiers, on both methods", async () => {
    useLangStore.getState().setLang('en');
    signInAs({ userRole: 'AMBASSADOR' });
    mockApi('AMBASSADOR');
    const user = userEvent.setup();
    renderApp('/payments/deposit');
    const amount = await screen.findByTestId('deposit-amount');

    await user.type(amount, '50');
    expect(await screen.findByTestId('deposit-bonus-preview')).toHaveTextContent('Deposits from $100.00 earn');

    await user.clear(amount);
    await user.type(amount, '150');
    // 7 % of $150, the first tier of this deployment (proto's default tier would say 5 %).
    await waitFor(() =>
      expect(screen.getByTestId('deposit-bonus-preview')).toHaveTextContent('a bonus of $10.50 (7%)'),
    );

    await user.click(screen.getByTestId('deposit-method-crypto'));
    expect(await screen.findByTestId('crypto-amount')).toHaveValue('150');
    await user.clear(screen.getByTestId('crypto-amount'));
    await user.type(screen.getByTestId('crypto-amount'), '300');
    await waitFor(() =>
      expect(screen.getByTestId('deposit-bonus-preview')).toHaveTextContent('a bonus of $36.00 (12%)'),
    );
  });
});
