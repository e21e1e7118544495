import { type User, type UserRole, type UserStatus } from '@kupa/proto';
import { type RaRecord, useDataProvider, useNotify, useUpdate } from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';

export type ClientRecord = User & RaRecord;

/** The two staff changes of an account's own fields, each its own API call. */
export type ClientChange = { status: UserStatus } | { role: UserRole };

/**
 * Status and role changes through react-admin's `useUpdate` in pessimistic mode, with the API's own calls as the
 * mutation: the screen waits for the server, and the account it answers with replaces the cached record (the detail
 * page and any list holding it), so the new state shows the moment the server agreed, without a reload.
 */
export function useClientUpdate() {
  const dataProvider = useDataProvider<KupaDataProvider>();
  const notify = useNotify();
  const [update, { isPending }] = useUpdate<ClientRecord>('clients', undefined, {
    mutationMode: 'pessimistic',
    mutationFn: async ({ id, data, previousData }) => {
      const userUuid = String(id);
      const change = data as ClientChange;
      const answer =
        'status' in change
          ? await dataProvider.changeUserStatus(userUuid, change.status)
          : await dataProvider.changeUserRole(userUuid, change.role);
      // The API answers with the account as it now is; an empty answer still means the change holds.
      const user = answer ?? { ...(previousData as User), ...change };
      return { ...user, id: user.userUuid } as ClientRecord;
    },
  });

  const change = (record: ClientRecord, data: ClientChange, successMessage: string) =>
    update(
      'clients',
      { id: record.id, data: data as Partial<ClientRecord>, previousData: record },
      {
        onSuccess: () => notify(successMessage, { type: 'success' }),
        onError: (error) => {
          // The HTTP client already turned the server's answer into the catalogue text of the page language.
          const message = error instanceof Error ? error.message : String(error);
          notify(message, { type: 'error', messageArgs: { _: message } });
        },
      },
    );

  return { change, pending: isPending };
}
