import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { translate } from '../../../lib/i18n/i18n';
import { useLangStore } from '../../../lib/stores/lang-store';
import { useReferralStore } from '../../../lib/stores/referral-store';
import { jsonResponse, makeUser, mockFetch, renderApp } from '../../../test/render-app';
import { parseSignUpSearch } from './referral-search';

async function fillValidForm(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByTestId('sign-up-email'), 'noa@example.com');
  await user.type(screen.getByTestId('sign-up-first-name'), 'Noa');
  await user.type(screen.getByTestId('sign-up-last-name'), 'Cohen');
  await user.type(screen.getByTestId('sign-up-password'), 'Secret#123');
  await user.type(screen.getByTestId('sign-up-confirm-password'), 'Secret#123');
  await user.click(screen.getByTestId('sign-up-terms'));
}

describe('sign-up', () => {
  it('shows proto catalogue messages for every invalid field and sends nothing', async () => {
    const { calls } = mockFetch(() => jsonResponse(201, makeUser()));
    const user = userEvent.setup();
    renderApp('/sign-up');
    await user.click(await screen.findByTestId('sign-up-submit'));

    expect(screen.getAllByText(formatErrorMessage('error.validation.required', 'he')).length).toBeGreaterThanOrEqual(5);
    expect(screen.getByText(formatErrorMessage('error.validation.terms.not.accepted', 'he'))).toBeInTheDocument();

    await user.type(screen.getByTestId('sign-up-email'), 'not-an-email');
    await user.type(screen.getByTestId('sign-up-password'), 'short');
    await user.type(screen.getByTestId('sign-up-confirm-password'), 'other');
    await user.click(screen.getByTestId('sign-up-submit'));

    expect(screen.getByText(formatErrorMessage('error.validation.invalid.email', 'he'))).toBeInTheDocument();
    expect(
      screen.getByText(formatErrorMessage('error.validation.password.rules', 'he', { length: 8 })),
    ).toBeInTheDocument();
    expect(screen.getByText(formatErrorMessage('error.validation.passwords.do.not.match', 'he'))).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('refuses addresses a mail library would read as someone else, and sends nothing', async () => {
    const { calls } = mockFetch(() => jsonResponse(201, makeUser()));
    const user = userEvent.setup();
    renderApp('/sign-up');
    await screen.findByTestId('sign-up-submit');
    await fillValidForm(user);
    for (const address of ['zz2<victim@example.com', '"@x.y', '.a@b.c']) {
      await user.clear(screen.getByTestId('sign-up-email'));
      await user.type(screen.getByTestId('sign-up-email'), address);
      await user.click(screen.getByTestId('sign-up-submit'));
      expect(screen.getByText(formatErrorMessage('error.validation.invalid.email', 'he'))).toBeInTheDocument();
    }
    expect(calls).toHaveLength(0);
  });

  it('labels its fields so they can be found by name', async () => {
    useLangStore.getState().setLang('en');
    mockFetch(() => jsonResponse(201, makeUser()));
    renderApp('/sign-up');
    expect(await screen.findByRole('textbox', { name: /Email/ })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /First name/ })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('type', 'password');
    expect(screen.getByRole('checkbox', { name: /I have read and agree to/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign up' })).toBeInTheDocument();
  });

  it('stores a numeric ?ref= and sends it as referralToken with the language', async () => {
    const { calls } = mockFetch(() => jsonResponse(201, makeUser({ email: 'noa@example.com' })));
    const user = userEvent.setup();
    renderApp('/sign-up?ref=00123456');

    expect(await screen.findByTestId('referral-applied')).toHaveTextContent('00123456');
    expect(useReferralStore.getState().referralToken).toBe('00123456');
    expect(JSON.parse(localStorage.getItem('referral') ?? '{}').state.referralToken).toBe('00123456');

    await fillValidForm(user);
    await user.click(screen.getByTestId('sign-up-submit'));

    expect(await screen.findByTestId('sign-up-done')).toHaveTextContent('noa@example.com');
    expect(screen.getByRole('heading', { name: translate('he', 'signUp.done.title') })).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ url: '/api/auth/signup', method: 'POST' });
    expect(calls[0].body).toEqual({
      email: 'noa@example.com',
      firstName: 'Noa',
      lastName: 'Cohen',
      password: 'Secret#123',
      termsAccepted: true,
      language: 'he',
      referralToken: '00123456',
    });
    // The code is spent once the account exists.
    expect(useReferralStore.getState().referralToken).toBeNull();
  });

  it('rejects a non-numeric ?ref= and sends no referral token', async () => {
    const { calls } = mockFetch(() => jsonResponse(201, makeUser()));
    const user = userEvent.setup();
    renderApp('/sign-up?ref=abc123');

    expect(await screen.findByTestId('referral-invalid')).toHaveTextContent(
      formatErrorMessage('error.validation.ref.numeric', 'he'),
    );
    expect(useReferralStore.getState().referralToken).toBeNull();

    await fillValidForm(user);
    await user.click(screen.getByTestId('sign-up-submit'));
    await screen.findByTestId('sign-up-done');
    expect(calls[0].body).not.toHaveProperty('referralToken');
  });

  it('accepts the terms from the terms dialog', async () => {
    mockFetch(() => jsonResponse(201, makeUser()));
    const user = userEvent.setup();
    renderApp('/sign-up');
    await user.click(await screen.findByTestId('terms-open'));
    await user.click(await screen.findByTestId('terms-agree'));
    await waitFor(() => expect(screen.getByTestId('sign-up-terms')).toBeChecked());
  });

  it('keeps ?ref= a string even when the router parsed it as a number', () => {
    expect(parseSignUpSearch({ ref: 12345678 })).toEqual({ ref: '12345678' });
    expect(parseSignUpSearch({ ref: 'x1' })).toEqual({ ref: 'x1' });
    expect(parseSignUpSearch({})).toEqual({});
  });
});
