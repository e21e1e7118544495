import { create } from 'zustand';
import { LIMITS } from '@kupa/proto';

export type ToastSeverity = 'error' | 'success' | 'info' | 'warning';

export interface Toast {
  id: number;
  severity: ToastSeverity;
  title: string;
  message: string;
  /**
   * What raised the toast (a query, a kind of mutation), for an error that a later success of the same source
   * resolves: that success closes it, and a repeat of the same failure replaces it rather than stacking a copy.
   */
  source?: string;
  /** A way to try the failed thing again (a read that reached no server), shown as a button in the toast. */
  retry?: () => void;
}

interface ToastStore {
  toasts: Toast[];
  show: (toast: Omit<Toast, 'id'>) => number;
  dismiss: (id: number) => void;
  /** Closes every toast raised by this source. */
  dismissSource: (source: string) => void;
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
    if (toast.source !== undefined) get().dismissSource(toast.source);
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
  dismissSource: (source) => {
    const closing = get().toasts.filter((toast) => toast.source === source);
    if (closing.length === 0) return;
    for (const toast of closing) clearTimer(toast.id);
    set({ toasts: get().toasts.filter((toast) => toast.source !== source) });
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
