import { formatErrorMessage, type User } from '@kupa/proto';
import { Alert } from '@mui/material';
import { Show, TabbedShowLayout, useRecordContext, useShowContext, useTranslate } from 'react-admin';
import { ApiError } from '../providers/http-client';
import { NotFound } from '../layout/not-found';
import { EmptyState } from '../shared/empty-state';
import { useLang } from '../shared/use-lang';
import { NotesTab } from './notes-tab';
import { ProfileTab } from './profile-tab';

function ClientTitle() {
  const record = useRecordContext<User>();
  const translate = useTranslate();
  return <>{record ? record.fullName || record.email : translate('resources.clients.name', { smart_count: 1 })}</>;
}

/**
 * What the page shows when the client cannot be loaded: the not-found screen when the server says the user does not
 * exist (spec §2), otherwise the server's message.
 */
function ClientLoadError() {
  const { error } = useShowContext();
  const translate = useTranslate();
  const lang = useLang();
  const notFound = error instanceof ApiError && (error.code === 'error.user.not.found' || error.status === 404);
  if (notFound) {
    return (
      <NotFound
        message={formatErrorMessage('error.user.not.found', lang)}
        backLabel={translate('kupa.clients.back_to_list')}
        fallbackPath="/clients"
      />
    );
  }
  return (
    <Alert severity="error" sx={{ mt: 2 }}>
      {error instanceof Error ? error.message : formatErrorMessage('error.internal.server.error', lang)}
    </Alert>
  );
}

function PlaceholderTab({ message, testId }: { message: string; testId: string }) {
  const translate = useTranslate();
  return <EmptyState testId={testId} title={translate('kupa.empty.title')} message={translate(message)} />;
}

export function ClientShow() {
  return (
    <Show
      title={<ClientTitle />}
      actions={false}
      error={<ClientLoadError />}
      // The error screen above replaces react-admin's default "element does not exist" toast and redirect.
      queryOptions={{ onError: () => undefined }}
    >
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="kupa.clients.tabs.profile" data-testid="client-tab-profile">
          <ProfileTab />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="kupa.clients.tabs.subscriptions" path="subscriptions" data-testid="client-tab-subscriptions">
          <PlaceholderTab message="kupa.clients.subscriptions_empty" testId="client-subscriptions-empty" />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="kupa.clients.tabs.payments" path="payments" data-testid="client-tab-payments">
          <PlaceholderTab message="kupa.clients.payments_empty" testId="client-payments-empty" />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="kupa.clients.tabs.notes" path="notes" data-testid="client-tab-notes">
          <NotesTab />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
