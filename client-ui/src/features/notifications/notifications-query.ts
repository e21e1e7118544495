import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notificationsApi } from '../../lib/api/endpoints';
import { useUserStore } from '../../lib/stores/user-store';

export const NOTIFICATIONS_QUERY_KEY = ['notifications'] as const;
export const NOTIFICATIONS_PAGE_SIZE = 20;
/** Reminders come from a sweep that runs about once a minute, so the bell looks about as often. */
const BELL_REFRESH_MS = 60_000;

/** A page of the client's notifications, newest first, with the unread count (the bell reads page 0). */
export function useNotifications(page = 0) {
  const userUuid = useUserStore((state) => state.userUuid);
  return useQuery({
    queryKey: [...NOTIFICATIONS_QUERY_KEY, userUuid, page],
    queryFn: () => notificationsApi.search({ page, size: NOTIFICATIONS_PAGE_SIZE }),
    enabled: userUuid !== null,
    refetchInterval: BELL_REFRESH_MS,
    // A bell that could not look is not worth a toast on every screen; it looks again in a minute.
    meta: { silentError: true },
  });
}

/** Marks one read, or all (no id); the bell and the list then read again. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string | null): Promise<void> => {
      if (id === null) await notificationsApi.markAllRead();
      else await notificationsApi.markRead(id);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY }),
  });
}
