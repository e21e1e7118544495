import { act, render, screen, within } from '@testing-library/react';
import { LIMITS } from '@kupa/proto';
import { notifyError } from '../api/query-client';
import { ApiError } from '../api/api-error';
import { useLangStore } from '../stores/lang-store';
import { ToastContainer } from './toast-container';
import { showToast, useToastStore } from './toast-store';

describe('toasts', () => {
  it('keeps at most three visible, dropping the oldest', () => {
    vi.useFakeTimers();
    render(<ToastContainer />);
    act(() => {
      for (const n of [1, 2, 3, 4]) showToast({ severity: 'info', title: 'Title', message: `message ${n}` });
    });
    const container = screen.getByTestId('toast-container');
    const toasts = within(container).getAllByTestId('toast');
    expect(LIMITS.toastsVisibleMax).toBe(3);
    expect(toasts).toHaveLength(3);
    expect(container).not.toHaveTextContent('message 1');
    expect(container).toHaveTextContent('message 4');
  });

  it('closes each toast after 4000 ms', () => {
    vi.useFakeTimers();
    render(<ToastContainer />);
    act(() => {
      showToast({ severity: 'success', title: 'Done', message: 'first' });
    });
    act(() => {
      vi.advanceTimersByTime(1000);
      showToast({ severity: 'success', title: 'Done', message: 'second' });
    });
    act(() => {
      vi.advanceTimersByTime(LIMITS.toastDurationMs - 1000 - 1);
    });
    expect(screen.getAllByTestId('toast')).toHaveLength(2);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
    expect(screen.getByTestId('toast-container')).toHaveTextContent('second');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
  });

  it('shows a server error with a generic title and the catalogue message in the current language', () => {
    useLangStore.getState().setLang('en');
    render(<ToastContainer />);
    act(() => {
      notifyError(
        new ApiError(409, { status: 409, error: 'error.insufficient.balance', message: 'whatever the server said' }),
      );
      notifyError(new ApiError(418, { status: 418, error: 'error.unknown.code', message: 'Raw server text' }));
    });
    const [first, second] = screen.getAllByTestId('toast');
    expect(first).toHaveTextContent('Something failed');
    expect(first).toHaveTextContent('Insufficient balance');
    expect(second).toHaveTextContent('Raw server text');
  });

  it('stays quiet for errors the client already handled', () => {
    const error = new ApiError(401, { status: 401, error: 'error.session.expired', message: '' });
    error.handled = true;
    notifyError(error);
    expect(useToastStore.getState().toasts).toHaveLength(0);
  });
});
