import { create } from 'zustand';
import { LIMITS } from '@kupa/proto';

export type ToastSeverity = 'error' | 'success' | 'info' | 'warning';

export interface Toast {
  id: number;
  severity: ToastSeverity;
  title: string;
  message: string;
}

interface ToastStore {
  toasts: Toast[];
  show: (toast: Omit<Toast, 'id'>) => number;
  dismiss: (id: number) => void;
  clear: () => void;
}

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

/**
 * Transient notifications. At most `LIMITS.toastsVisibleMax` are kept, the oldest giving way to a new one, and each
 * closes itself after `LIMITS.toastDurationMs`. The timer lives here rather than in the component so a toast closes
 * on time even while it is not rendered.
 */
export const useToastStore = create<ToastStore>()((set, get) => ({
  toasts: [],
  show: (toast) => {
    const id = nextId++;
    const toasts = [...get().toasts, { ...toast, id }];
    const overflow = toasts.slice(0, Math.max(0, toasts.length - LIMITS.toastsVisibleMax));
    for (const dropped of overflow) clearTimer(dropped.id);
    set({ toasts: toasts.slice(overflow.length) });
    timers.set(
      id,
      setTimeout(() => get().dismiss(id), LIMITS.toastDurationMs),
    );
    return id;
  },
  dismiss: (id) => {
    clearTimer(id);
    set({ toasts: get().toasts.filter((toast) => toast.id !== id) });
  },
  clear: () => {
    for (const id of timers.keys()) clearTimer(id);
    set({ toasts: [] });
  },
}));

function clearTimer(id: number): void {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
}

export function showToast(toast: Omit<Toast, 'id'>): number {
  return useToastStore.getState().show(toast);
}
