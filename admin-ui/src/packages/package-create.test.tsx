import { enumLabel, formatErrorMessage } from '@kupa/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { writeLanguage } from '../i18n/language';
import { json, mockFetch, type RecordedCall } from '../test/fetch-mock';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { PackageCreate } from './package-create';

const created = {
  id: 'p-9',
  name: 'Gold',
  durationInMonths: 3,
  price: 29.5,
  currency: 'USD',
  isRecurrent: true,
  description: 'Every channel',
  features: ['HD', 'Two screens'],
  status: 'ACTIVE',
  createdAt: '2026-03-02T10:00:00Z',
  updatedAt: '2026-03-02T10:00:00Z',
};

function renderCreate(onLocation?: (path: string) => void) {
  signInAs('ADMIN');
  // The page language, which the server's refusals are shown in, matches the catalogue the form is rendered with.
  writeLanguage('en');
  return renderInAdmin(<PackageCreate />, {
    resource: 'packages',
    lang: 'en',
    path: '/admin/packages/create',
    notifications: true,
    onLocation,
  });
}

const posts = (calls: RecordedCall[]) =>
  calls.filter((call) => call.method === 'POST' && call.url === '/api/payment-plans');
const message = (code: Parameters<typeof formatErrorMessage>[0], params?: Record<string, string | number>) =>
  formatErrorMessage(code, 'en', params);

describe('creating a package', () => {
  it('refuses a blank name, no duration and no price with the catalogue messages and sends nothing', async () => {
    const { calls } = mockFetch({ 'POST /api/payment-plans': () => json(201, created) });
    const user = userEvent.setup();
    renderCreate();

    await user.type(await screen.findByTestId('package-name'), '   ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(message('error.validation.blank'))).toBeVisible();
    expect(screen.getAllByText(message('error.validation.required'))).toHaveLength(2);
    expect(posts(calls)).toEqual([]);
  });

  it('holds the name and the price to the package limits before sending', async () => {
    const { calls } = mockFetch({ 'POST /api/payment-plans': () => json(201, created) });
    const user = userEvent.setup();
    renderCreate();

    await user.type(await screen.findByTestId('package-name'), 'x'.repeat(101));
    await user.type(screen.getByTestId('package-price'), '1.005');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(message('error.validation.max.length', { max: 100 }))).toBeVisible();
    expect(screen.getByText(message('error.validation.max.decimal.places', { maxDecimalPlaces: 2 }))).toBeVisible();

    await user.clear(screen.getByTestId('package-price'));
    await user.type(screen.getByTestId('package-price'), '100000');
    expect(await screen.findByText(message('error.validation.max', { max: 99999.99 }))).toBeVisible();
    await user.clear(screen.getByTestId('package-price'));
    await user.type(screen.getByTestId('package-price'), 'ten');
    expect(await screen.findByText(message('error.validation.invalid.input'))).toBeVisible();
    expect(posts(calls)).toEqual([]);
  });

  it('sends exactly the package an admin typed, price as a number, then opens the list', async () => {
    const { calls } = mockFetch({
      'POST /api/payment-plans': () => json(201, created),
      'POST /api/payment-plans/search': () =>
        json(200, { content: [], page: 0, size: 20, totalElements: 0, totalPages: 0 }),
    });
    const user = userEvent.setup();
    const locations: string[] = [];
    renderCreate((path) => locations.push(path));

    await user.type(await screen.findByTestId('package-name'), 'Gold');
    await user.click(screen.getByRole('combobox', { name: /Duration/ }));
    await user.click(
      within(await screen.findByRole('listbox')).getByRole('option', { name: enumLabel('planDuration', 3, 'en') }),
    );
    await user.type(screen.getByTestId('package-price'), '29.50');
    await user.type(screen.getByTestId('package-description'), 'Every channel');
    // The English texts sit beside the Hebrew ones, each labelled with its language.
    expect(screen.getByRole('textbox', { name: 'Name in Hebrew' })).toBe(screen.getByTestId('package-name'));
    await user.click(screen.getByRole('textbox', { name: 'Name in English' }));
    await user.paste('Gold EN');
    await user.click(screen.getByRole('textbox', { name: 'Description in English' }));
    await user.paste('All channels');
    // On card sale by default; the admin takes this one off it.
    const card = screen.getByRole('switch', { name: 'Can be bought by card' });
    expect(card).toBeChecked();
    await user.click(card);
    const features = screen.getByRole('combobox', { name: 'Features' });
    await user.type(features, 'HD{Enter}');
    await user.type(features, 'Two screens{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0].body).toEqual({
      name: 'Gold',
      durationInMonths: 3,
      price: 29.5,
      currency: 'USD',
      isRecurrent: true,
      description: 'Every channel',
      features: ['HD', 'Two screens'],
      status: 'ACTIVE',
      cardPaymentAllowed: false,
      nameEn: 'Gold EN',
      descriptionEn: 'All channels',
    });
    await waitFor(() => expect(locations[locations.length - 1]).toBe('/admin/packages'));
    // Every field of the form is typed, the English ones too: slower than the usual budget on a busy machine.
  }, 40_000);

  it("shows the server's refusal of a name in use and stays on the form", async () => {
    mockFetch({
      'POST /api/payment-plans': () =>
        json(409, {
          status: 409,
          error: 'error.payment.plan.already.exists',
          message: 'exists',
          details: { field: 'name' },
        }),
    });
    const user = userEvent.setup();
    renderCreate();

    await user.type(await screen.findByTestId('package-name'), 'Gold');
    await user.click(screen.getByRole('combobox', { name: /Duration/ }));
    await user.click(
      within(await screen.findByRole('listbox')).getByRole('option', { name: enumLabel('planDuration', 1, 'en') }),
    );
    await user.type(screen.getByTestId('package-price'), '5');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(message('error.payment.plan.already.exists'))).toBeVisible();
    expect(screen.getByTestId('package-name')).toHaveValue('Gold');
  });
});
