import { screen, waitFor } from '@testing-library/react';
import { jsonResponse, mockFetch, renderApp } from '../test/render-app';
import { parsePaymentsSearch } from '../features/payments/list/payments-search';
import { parseSearch, stringifySearch } from './router';

describe('search params in the address', () => {
  it('keep a referral code as typed, without quotes, once the sign-up page has read it', async () => {
    mockFetch(() => jsonResponse(204));
    const { history } = renderApp('/sign-up?ref=12345678');
    expect(await screen.findByTestId('referral-applied')).toHaveTextContent('12345678');
    await waitFor(() => expect(history.location.search).toBe('?ref=12345678'));
  });

  it('write digit text plain and read JSON values as JSON, round-tripping both', () => {
    const search = parseSearch('?ref=00123456&page=2&sorts=%5B%7B%22id%22%3A%22amount%22%2C%22desc%22%3Atrue%7D%5D');
    expect(search).toEqual({ ref: '00123456', page: 2, sorts: [{ id: 'amount', desc: true }] });
    expect(parseSearch(stringifySearch(search))).toEqual(search);
    expect(stringifySearch({ ref: '12345678', page: 3 })).toBe('?ref=12345678&page=3');
  });

  it('keep a keyword of digits a keyword when it comes back from the address', () => {
    const address = stringifySearch({ keyWord: '12345678' });
    expect(address).toBe('?keyWord=12345678');
    expect(parsePaymentsSearch(parseSearch(address)).keyWord).toBe('12345678');
  });
});
