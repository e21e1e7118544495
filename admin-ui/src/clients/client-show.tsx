import { type User } from '@kupa/proto';
import { Show, TabbedShowLayout, TabbedShowLayoutTabs, useRecordContext, useTranslate } from 'react-admin';
import { Suspense } from 'react';
import { CircularProgress } from '@mui/material';
import { lazyPage } from '../shared/lazy-page';
import { RecordLoadError } from '../shared/record-load-error';
import { NotesTab } from './notes-tab';
import { NotificationsTab } from './notifications-tab';
import { PaymentsTab } from './payments-tab';
import { ProfileTab } from './profile-tab';
import { ReceiptsTab } from './receipts-tab';
import { SessionsTab } from './sessions-tab';
import { SubscriptionsTab } from './subscriptions-tab';

/** The statement tab loads with its own script when it is first opened (ADR 0096). */
const StatementTab = lazyPage(() => import('./statement-tab'), 'StatementTab');

function ClientTitle() {
  const record = useRecordContext<User>();
  const translate = useTranslate();
  return <>{record ? record.fullName || record.email : translate('resources.clients.name', { smart_count: 1 })}</>;
}

export function ClientShow() {
  return (
    <Show
      title={<ClientTitle />}
      actions={false}
      error={
        <RecordLoadError
          notFoundCode="error.user.not.found"
          backLabel="kupa.clients.back_to_list"
          fallbackPath="/clients"
        />
      }
      // The error screen above replaces react-admin's default "element does not exist" toast and redirect.
      queryOptions={{ onError: () => undefined }}
    >
      {/* The tabs scroll sideways on their own when they do not fit (a phone in English), never the page. */}
      <TabbedShowLayout
        tabs={<TabbedShowLayoutTabs variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile />}
      >
        <TabbedShowLayout.Tab label="kupa.clients.tabs.profile" data-testid="client-tab-profile">
          <ProfileTab />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab
          label="kupa.clients.tabs.subscriptions"
          path="subscriptions"
          data-testid="client-tab-subscriptions"
        >
          <SubscriptionsTab />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="kupa.clients.tabs.payments" path="payments" data-testid="client-tab-payments">
          <PaymentsTab />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="kupa.clients.tabs.receipts" path="receipts" data-testid="client-tab-receipts">
          <ReceiptsTab />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="kupa.clients.tabs.notes" path="notes" data-testid="client-tab-notes">
          <NotesTab />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab
          label="kupa.clients.tabs.notifications"
          path="notifications"
          data-testid="client-tab-notifications"
        >
          <NotificationsTab />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="kupa.clients.tabs.statement" path="statement" data-testid="client-tab-statement">
          <Suspense fallback={<CircularProgress size={24} />}>
            <StatementTab />
          </Suspense>
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="kupa.clients.tabs.sessions" path="sessions" data-testid="client-tab-sessions">
          <SessionsTab />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
