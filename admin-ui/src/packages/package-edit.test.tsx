import { formatErrorMessage } from '@kupa/proto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { writeLanguage } from '../i18n/language';
import { json, mockFetch } from '../test/fetch-mock';
import { PACKAGE } from '../test/fixtures';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { PackageEdit } from './package-edit';

const gold = { ...PACKAGE, features: [...PACKAGE.features] };

describe('editing a package', () => {
  it('sends the whole package without its id and dates, and shows the refusal of a new price for one in use', async () => {
    signInAs('ADMIN');
    writeLanguage('en');
    const { calls } = mockFetch({
      'GET /api/payment-plans/p-1': () => json(200, gold),
      'PUT /api/payment-plans/p-1': () =>
        json(409, { status: 409, error: 'error.payment.plan.cannot.be.modified', message: 'in use' }),
    });
    const user = userEvent.setup();
    renderInAdmin(<PackageEdit id="p-1" />, {
      resource: 'packages',
      lang: 'en',
      path: '/admin/packages/p-1',
      notifications: true,
    });

    const price = await screen.findByTestId('package-price');
    await waitFor(() => expect(price).toHaveValue('29.99'));
    await user.clear(price);
    await user.type(price, '34.90');
    await user.click(screen.getByTestId('package-save'));

    expect(await screen.findByText(formatErrorMessage('error.payment.plan.cannot.be.modified', 'en'))).toBeVisible();
    const puts = calls.filter((call) => call.method === 'PUT');
    const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, ...request } = gold;
    expect(puts.map((call) => call.body)).toEqual([{ ...request, price: 34.9 }]);
    expect(screen.getByTestId('package-price')).toHaveValue('34.90');
  });
});
