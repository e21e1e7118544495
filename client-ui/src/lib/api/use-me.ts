import { useQuery } from '@tanstack/react-query';
import { useUserStore } from '../stores/user-store';
import { usersApi } from './endpoints';

export const ME_QUERY_KEY = ['users', 'me'] as const;

/** The signed-in user's record; only asked for when a user is known. */
export function useMe() {
  const userUuid = useUserStore((state) => state.userUuid);
  return useQuery({ queryKey: [...ME_QUERY_KEY, userUuid], queryFn: usersApi.me, enabled: userUuid !== null });
}
