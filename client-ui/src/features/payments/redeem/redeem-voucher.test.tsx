import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import {
  errorResponse,
  jsonResponse,
  makePayment,
  makeUser,
  mockFetch,
  pageOf,
  renderApp,
  signInAs,
  type RecordedCall,
} from '../../../test/render-app';

const MONEY_PREVIEW = {
  kind: 'MONEY',
  amount: 25,
  days: null,
  planName: null,
  subscriptionId: null,
  endDate: null,
  newSubscription: false,
};

/**
 * A client with $10 whose balance grows by $25 on a redemption the server accepts; a preview answers `preview` (a
 * $25 money code unless told otherwise).
 */
function mockRedeemApi(
  answer: (call: RecordedCall) => Response,
  preview: () => Response = () => jsonResponse(200, MONEY_PREVIEW),
) {
  let balance = 10;
  return mockFetch(async (call) => {
    if (call.url === '/api/users/me') return jsonResponse(200, makeUser({ balance }));
    if (call.url === '/api/payments/search') return jsonResponse(200, pageOf([makePayment()]));
    if (call.url === '/api/vouchers/preview') return preview();
    if (call.url === '/api/vouchers/redeem') {
      const response = answer(call);
      if (response.ok) balance += 25;
      return response;
    }
    return errorResponse(404, 'error.entity.not.found');
  });
}

const redemptions = (calls: RecordedCall[]) => calls.filter((call) => call.url === '/api/vouchers/redeem');
const previews = (calls: RecordedCall[]) => calls.filter((call) => call.url === '/api/vouchers/preview');

describe('redeeming a voucher', () => {
  it('sends the code from the payments page and refreshes the balance once it is credited', async () => {
    signInAs();
    const { calls } = mockRedeemApi(() => jsonResponse(201, { amount: 25, balance: 35, paymentId: 9 }));
    const user = userEvent.setup();
    renderApp('/payments');
    await user.type(await screen.findByTestId('redeem-code'), ' abcd-efgh-jkmn-pqrs ');
    await user.click(screen.getByTestId('redeem-submit'));
    // First what it gives, and nothing spent; then the click that spends it.
    expect(await screen.findByTestId('redeem-preview')).toHaveTextContent(/השובר מוסיף .*25\.00.* ליתרה/);
    expect(previews(calls)[0].body).toEqual({ code: 'abcd-efgh-jkmn-pqrs' });
    expect(redemptions(calls)).toHaveLength(0);
    await user.click(screen.getByTestId('redeem-confirm'));
    await waitFor(() => expect(redemptions(calls)).toHaveLength(1));
    expect(redemptions(calls)[0].body).toEqual({ code: 'abcd-efgh-jkmn-pqrs' });
    await waitFor(() => expect(screen.getByTestId('redeem-code')).toHaveValue(''));
    await waitFor(() => expect(calls.filter((call) => call.url === '/api/users/me').length).toBeGreaterThanOrEqual(2));
  });

  it('explains a wrong, a used and a rate-limited code under the field, and sends nothing for an empty one', async () => {
    signInAs();
    const answers = [
      errorResponse(404, 'error.voucher.code.invalid'),
      errorResponse(409, 'error.voucher.code.already.redeemed'),
      errorResponse(429, 'error.rate.limited'),
    ];
    const { calls } = mockRedeemApi(
      () => jsonResponse(500, {}),
      () => answers.shift()!,
    );
    const user = userEvent.setup();
    renderApp('/payments');
    await user.click(await screen.findByTestId('redeem-submit'));
    expect(await screen.findByText('הזינו את קוד השובר')).toBeInTheDocument();
    expect(previews(calls)).toHaveLength(0);

    await user.type(screen.getByTestId('redeem-code'), 'ZZZZ-ZZZZ-ZZZZ-ZZZZ');
    for (const code of ['error.voucher.code.invalid', 'error.voucher.code.already.redeemed', 'error.rate.limited']) {
      await user.click(screen.getByTestId('redeem-submit'));
      expect(await screen.findByText(formatErrorMessage(code as 'error.rate.limited', 'he'))).toBeInTheDocument();
    }
    expect(previews(calls)).toHaveLength(3);
    expect(redemptions(calls)).toHaveLength(0);
  });

  it('fills the code from /redeem/{code} and waits for the click before spending it', async () => {
    signInAs();
    const { calls } = mockRedeemApi(() => jsonResponse(201, { amount: 25, balance: 35, paymentId: 9 }));
    const user = userEvent.setup();
    const { history } = renderApp('/redeem/ABCD-EFGH-JKMN-PQRS');
    expect(await screen.findByTestId('redeem-code')).toHaveValue('ABCD-EFGH-JKMN-PQRS');
    expect(redemptions(calls)).toHaveLength(0);
    await user.click(screen.getByTestId('redeem-submit'));
    await user.click(await screen.findByTestId('redeem-confirm'));
    await waitFor(() => expect(history.location.pathname).toBe('/payments'));
    expect(redemptions(calls)[0].body).toEqual({ code: 'ABCD-EFGH-JKMN-PQRS' });
  });

  it('a day voucher says what it added and leads from /redeem/{code} to the subscription it extended', async () => {
    signInAs();
    const subscriptionId = '77777777-7777-4777-8777-777777777777';
    mockRedeemApi(
      () =>
        jsonResponse(201, {
          kind: 'DAYS',
          amount: 0,
          balance: 10,
          paymentId: null,
          days: 30,
          planName: 'Basic',
          subscriptionId,
          endDate: '2027-01-15T10:00:00.000Z',
          newSubscription: false,
        }),
      () =>
        jsonResponse(200, {
          kind: 'DAYS',
          amount: 0,
          days: 30,
          planName: 'Basic',
          subscriptionId,
          endDate: '2027-01-15T10:00:00.000Z',
          newSubscription: false,
        }),
    );
    const user = userEvent.setup();
    const { history } = renderApp('/redeem/ABCD-EFGH-JKMN-PQRS');
    await user.click(await screen.findByTestId('redeem-submit'));
    expect(await screen.findByTestId('redeem-preview')).toHaveTextContent(
      /השובר נותן 30 ימים של .*Basic.*: המנוי שלכם יימשך אז עד .*2027/,
    );
    await user.click(screen.getByTestId('redeem-confirm'));
    await waitFor(() => expect(history.location.pathname).toBe(`/subscriptions/${subscriptionId}`));
    expect(await screen.findByText(/30 ימים של .*Basic.* נוספו למנוי/)).toBeInTheDocument();
  });

  it('a day voucher for a package the client has none of starts a subscription with the login asked for', async () => {
    signInAs();
    const subscriptionId = '88888888-8888-4888-8888-888888888888';
    const answers = [
      errorResponse(409, 'error.login.already.exists'),
      jsonResponse(201, {
        kind: 'DAYS',
        amount: 0,
        balance: 10,
        paymentId: null,
        days: 30,
        planName: 'Basic',
        subscriptionId,
        endDate: null,
        newSubscription: true,
      }),
    ];
    const { calls } = mockRedeemApi(
      () => answers.shift()!,
      () =>
        jsonResponse(200, {
          kind: 'DAYS',
          amount: 0,
          days: 30,
          planName: 'Basic',
          subscriptionId: null,
          endDate: null,
          newSubscription: true,
        }),
    );
    const user = userEvent.setup();
    const { history } = renderApp('/redeem/ABCD-EFGH-JKMN-PQRS');
    await user.click(await screen.findByTestId('redeem-submit'));
    expect(await screen.findByTestId('redeem-preview')).toHaveTextContent(/ופותח מנוי חדש/);
    await user.click(screen.getByTestId('redeem-confirm'));
    await user.type(await screen.findByTestId('redeem-credentials-login'), 'dana.tv');
    await user.type(screen.getByTestId('redeem-credentials-password'), 'pass-1234');
    await user.type(screen.getByTestId('redeem-credentials-confirm-password'), 'pass-1234');
    await user.click(screen.getByTestId('redeem-credentials-submit'));
    expect(await screen.findByText(formatErrorMessage('error.login.already.exists', 'he'))).toBeInTheDocument();
    await user.clear(screen.getByTestId('redeem-credentials-login'));
    await user.type(screen.getByTestId('redeem-credentials-login'), 'dana.tv2');
    await user.click(screen.getByTestId('redeem-credentials-submit'));
    await waitFor(() => expect(history.location.pathname).toBe(`/subscriptions/${subscriptionId}`));
    expect(redemptions(calls).map((call) => call.body)).toEqual([
      { code: 'ABCD-EFGH-JKMN-PQRS', login: 'dana.tv', password: 'pass-1234' },
      { code: 'ABCD-EFGH-JKMN-PQRS', login: 'dana.tv2', password: 'pass-1234' },
    ]);
    expect(await screen.findByText(/המנוי שלכם ל.*Basic.* עם 30 ימים יתחיל/)).toBeInTheDocument();
  });
});
