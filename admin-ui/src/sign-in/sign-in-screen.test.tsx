import { formatErrorMessage } from '@kupa/proto';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { en } from '../i18n/en';
import { he } from '../i18n/he';
import { writeLanguage } from '../i18n/language';
import { createTranslate } from '../i18n/text';
import { refreshAccessToken } from '../providers/http-client';
import { session } from '../providers/session';
import { json, mockFetch } from '../test/fetch-mock';
import { SignInScreen } from './sign-in-screen';

/**
 * The first screen of a signed-out user, rendered as `main.tsx` does: no react-admin context around it, and the
 * language stored, since the API client reads it from there.
 */
function renderScreen(lang: 'he' | 'en', onSignedIn = vi.fn()) {
  writeLanguage(lang);
  const messages = lang === 'he' ? he : en;
  render(<SignInScreen text={{ lang, translate: createTranslate(messages) }} onSignedIn={onSignedIn} />);
  return onSignedIn;
}

async function signIn(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  await user.type(screen.getByTestId('login-email'), email);
  await user.type(screen.getByTestId('login-password'), password);
  await user.click(screen.getByTestId('login-submit'));
}

describe('sign-in screen before the console loads', () => {
  it('signs staff in with a code, stores the session, and only then asks for the console', async () => {
    const { calls } = mockFetch({
      'POST /api/auth/signin': [
        () => json(401, { status: 401, error: 'error.otp.required', message: 'A one-time code is required' }),
        () => json(200, { accessToken: 'staff-token', userUuid: 's-1', email: 'avi@example.com', userRole: 'ADMIN' }),
      ],
    });
    const user = userEvent.setup();
    const onSignedIn = renderScreen('he');
    expect(screen.getByRole('heading', { name: createTranslate(he)('kupa.login.title') })).toBeVisible();

    await signIn(user, 'avi@example.com', 'Secret1!x');
    expect(await screen.findByTestId('login-otp-intro')).toHaveTextContent(createTranslate(he)('kupa.login.otp_intro'));
    expect(onSignedIn).not.toHaveBeenCalled();

    await user.type(screen.getByTestId('login-otp'), '123456');
    await user.click(screen.getByTestId('login-submit'));

    await waitFor(() => expect(onSignedIn).toHaveBeenCalledTimes(1));
    expect(session.get()).toMatchObject({ accessToken: 'staff-token', userRole: 'ADMIN' });
    expect(calls.map((call) => call.body)).toEqual([
      { email: 'avi@example.com', password: 'Secret1!x' },
      { email: 'avi@example.com', password: 'Secret1!x', otp: '123456' },
    ]);
  });

  it("refuses a client in English with proto's text, and does not open the console", async () => {
    mockFetch({
      'POST /api/auth/signin': () =>
        json(200, { accessToken: 'client-token', userUuid: 'c-1', email: 'dana@example.com', userRole: 'CLIENT' }),
      'POST /api/auth/logout': () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    const onSignedIn = renderScreen('en');

    await signIn(user, 'dana@example.com', 'Secret1!x');

    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      formatErrorMessage('error.use.client.app', 'en'),
    );
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(session.get()).toBeNull();
    expect(screen.getByRole('button', { name: createTranslate(en)('kupa.password.show') })).toBeVisible();
    expect(screen.getByTestId('lang-toggle')).toHaveTextContent(createTranslate(en)('kupa.language.toggle'));
  });

  it('says why a session ended by policy, once the refresh was refused, in the page language', async () => {
    mockFetch({
      'POST /api/auth/token/refresh': [
        () => json(401, { status: 401, error: 'error.session.idle', message: 'idle' }),
        () => json(401, { status: 401, error: 'error.session.second.factor.required', message: 'code' }),
      ],
    });
    session.set({ accessToken: 'old-token', userUuid: 's-1', email: 'avi@example.com', userRole: 'MANAGER' });
    expect(await refreshAccessToken()).toBe(false);
    expect(session.get()).toBeNull();

    renderScreen('he');
    const notice = screen.getByTestId('login-session-ended');
    expect(notice).toHaveTextContent(createTranslate(he)('kupa.login.session_ended'));
    expect(notice).toHaveTextContent(formatErrorMessage('error.session.idle', 'he'));
    cleanup();

    expect(await refreshAccessToken()).toBe(false);
    renderScreen('en');
    expect(screen.getByTestId('login-session-ended')).toHaveTextContent(
      formatErrorMessage('error.session.second.factor.required', 'en'),
    );
  });

  it('shows a bare form on a first visit, after a refusal that explains nothing, and after signing in', async () => {
    renderScreen('en');
    expect(screen.queryByTestId('login-session-ended')).toBeNull();
    cleanup();

    mockFetch({
      'POST /api/auth/token/refresh': () => json(401, { status: 401, error: 'error.session.expired', message: 'x' }),
    });
    expect(await refreshAccessToken()).toBe(false);
    renderScreen('en');
    expect(screen.queryByTestId('login-session-ended')).toBeNull();
    cleanup();

    session.noteEnd('error.session.lifetime.reached');
    session.set({ accessToken: 'new-token', userUuid: 's-1', email: 'avi@example.com', userRole: 'ADMIN' });
    renderScreen('en');
    expect(screen.queryByTestId('login-session-ended')).toBeNull();
  });
});
