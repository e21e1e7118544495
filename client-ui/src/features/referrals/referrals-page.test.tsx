import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { translate } from '../../lib/i18n/i18n';
import { useLangStore } from '../../lib/stores/lang-store';
import { jsonResponse, makeDictionaries, makeUser, mockFetch, renderApp, signInAs } from '../../test/render-app';

const referrals = (activeReferrals: number, discountPercent: number) => ({
  ...makeUser().referrals,
  totalReferrals: 7,
  activeReferrals,
  discountPercent,
});

describe('referrals', () => {
  it('copies the link and announces it, with the profile ID, the counters and the discount', async () => {
    signInAs();
    mockFetch(() => jsonResponse(200, makeUser({ referrals: referrals(4, 10) })));
    const user = userEvent.setup();
    renderApp('/referrals');

    expect(await screen.findByTestId('referral-link')).toHaveValue('http://localhost:3000/sign-up?ref=12345678');
    expect(screen.getByTestId('referrals-profile-id')).toHaveTextContent('12345678');
    expect(screen.getByTestId('referrals-total')).toHaveTextContent('7');
    expect(screen.getByTestId('referrals-active')).toHaveTextContent('4');
    expect(screen.getByTestId('referrals-discount')).toHaveTextContent('10%');
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('');

    await user.click(screen.getByTestId('referral-copy'));

    await waitFor(() => expect(status).toHaveTextContent(translate('he', 'referrals.copied')));
    await expect(navigator.clipboard.readText()).resolves.toBe('http://localhost:3000/sign-up?ref=12345678');
    expect(screen.getByTestId('referral-copy')).toHaveTextContent(translate('he', 'referrals.copied'));
  });

  it('selects the link for a manual copy when the browser refuses to write to the clipboard', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockFetch(() => jsonResponse(200, makeUser()));
    const user = userEvent.setup();
    renderApp('/referrals');
    const input = (await screen.findByTestId('referral-link')) as HTMLInputElement;
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));

    await user.click(screen.getByTestId('referral-copy'));

    expect(await screen.findByText(translate('en', 'referrals.copyFailed'))).toBeInTheDocument();
    expect(input.selectionEnd! - input.selectionStart!).toBe(input.value.length);
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('shows the discount tiers with the client’s own marked and the way to the next, in English', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockFetch(() => jsonResponse(200, makeUser({ referrals: referrals(4, 10) })));
    renderApp('/referrals');

    const table = await screen.findByTestId('referral-tiers');
    const rows = within(table).getAllByTestId('referral-tier');
    expect(rows.map((row) => row.textContent)).toEqual(['1–25%', '3–5 (your tier)10%', '6–915%', '10 or more20%']);
    expect(rows[1]).toHaveAttribute('data-current', 'true');
    expect(screen.getByTestId('referrals-next-tier')).toHaveTextContent(
      '2 more active referrals take you to a 15% discount.',
    );
    // Deposit bonuses are an ambassador's.
    expect(screen.queryByTestId('bonus-tiers')).toBeNull();
  });

  it('says "one more referral" in the singular, in both languages, when a single one is missing', async () => {
    signInAs();
    mockFetch(() => jsonResponse(200, makeUser({ referrals: referrals(0, 0) })));
    renderApp('/referrals');

    expect(await screen.findByTestId('referrals-next-tier')).toHaveTextContent(
      translate('he', 'referrals.tiers.nextOne', { percent: '5%' }).replace(/\u2068|\u2069/g, ''),
    );
    expect(translate('en', 'referrals.tiers.nextOne', { percent: '5%' })).toContain('One more active referral takes');
  });

  it('shows an ambassador the deposit bonus tiers, and the top tier as reached', async () => {
    signInAs({ userRole: 'AMBASSADOR' });
    mockFetch(() => jsonResponse(200, makeUser({ role: 'AMBASSADOR', referrals: referrals(12, 20) })));
    renderApp('/referrals');

    const bonus = await screen.findByTestId('bonus-tiers');
    expect(within(bonus).getAllByRole('row')).toHaveLength(6);
    expect(bonus).toHaveTextContent('25%');
    expect(screen.getByTestId('referrals-next-tier')).toHaveTextContent(translate('he', 'referrals.tiers.top'));
  });

  it('shows the tiers the deployment configured, not the built-in ones', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const configured = {
      referralDiscount: [
        { minActiveReferrals: 2, percent: 8 },
        { minActiveReferrals: 4, percent: 12 },
      ],
      ambassadorBonus: [{ minDepositMinor: 10_000, percent: 3 }],
    };
    mockFetch(({ url }) =>
      url === '/api/dictionaries'
        ? jsonResponse(200, makeDictionaries(undefined, configured))
        : jsonResponse(200, makeUser({ referrals: referrals(2, 8) })),
    );
    renderApp('/referrals');

    await waitFor(() =>
      expect(within(screen.getByTestId('referral-tiers')).getAllByTestId('referral-tier')).toHaveLength(2),
    );
    const rows = within(screen.getByTestId('referral-tiers')).getAllByTestId('referral-tier');
    expect(rows.map((row) => row.textContent)).toEqual(['2–3 (your tier)8%', '4 or more12%']);
  });
});
