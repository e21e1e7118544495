import { screen, waitFor, within } from '@testing-library/react';
import { useLangStore } from '../../lib/stores/lang-store';
import { jsonResponse, makePayment, makeUser, mockFetch, pageOf, renderApp, signInAs } from '../../test/render-app';

describe('one money format on a screen', () => {
  it.each([
    ['he', '1,234.50\u00a0$', /^[-+]?\d[\d,.]*\s\$$/],
    ['en', '$1,234.50', /^[-+]?\$\d[\d,.]*$/],
  ] as const)(
    'puts the dollar sign on the same side in the balance chip and in the payments list (%s)',
    async (lang, balance, shape) => {
      useLangStore.getState().setLang(lang);
      signInAs();
      mockFetch(({ url }) => {
        if (url === '/api/users/me') return jsonResponse(200, makeUser({ balance: 1234.5 }));
        if (url === '/api/payments/search')
          return jsonResponse(200, pageOf([makePayment({ paymentId: 7, amount: 25 })]));
        return jsonResponse(200, pageOf([]));
      });
      renderApp('/payments');
      const chip = await screen.findByTestId('balance');
      const chipAmount = chip.querySelector('bdi');
      expect(chipAmount).toHaveAttribute('dir', 'ltr');
      await waitFor(() => expect(chipAmount?.textContent).toBe(balance));

      const row = (await screen.findAllByTestId('payments-row'))[0];
      const rowAmount = within(row).getAllByText(/\$/)[0];
      expect(rowAmount.closest('bdi')).toHaveAttribute('dir', 'ltr');
      expect(rowAmount.textContent?.trim()).toMatch(shape);
      expect(chipAmount?.textContent?.trim()).toMatch(shape);
    },
  );
});
