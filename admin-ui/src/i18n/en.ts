import englishMessages from 'ra-language-english';
import { type TranslationMessages } from 'react-admin';

/**
 * English: react-admin's own English messages plus the console's resources and screens. The Hebrew catalogue must
 * hold exactly the same keys (a test checks it).
 */
export const en: TranslationMessages = {
  ...englishMessages,
  resources: {
    clients: {
      name: 'Client |||| Clients',
      fields: {
        fullName: 'Full name',
        email: 'Email',
        profileId: 'Profile ID',
        role: 'Role',
        status: 'Status',
        balance: 'Balance',
        userCreatedAt: 'Registration date',
        trialUsed: 'Trial used',
        trialRejected: 'Trial declined',
        keyWord: 'Search',
        statuses: 'Statuses',
        roles: 'Roles',
        registrationDateFrom: 'Registered from',
        registrationDateTo: 'Registered until',
      },
    },
    'activity-log': {
      name: 'Activity log entry |||| Activity log',
      fields: {
        id: 'Entry ID',
        createdAt: 'Time',
        createdBy: { name: 'By' },
        operationType: 'Operation',
        target: { type: 'Target type', id: 'Target ID' },
        parent: { type: 'Parent type', id: 'Parent ID' },
        eventType: 'Event',
        createdAtFrom: 'From',
        createdAtTo: 'Until',
        targetAndParentTypes: 'Target or parent types',
        targetAndParentIds: 'Target or parent IDs',
        operationTypes: 'Operations',
      },
    },
    subscriptions: { name: 'Subscription |||| Subscriptions' },
    payments: { name: 'Payment |||| Payments' },
    packages: { name: 'Package |||| Packages' },
  },
  kupa: {
    app: { title: 'Kupa staff console' },
    language: { toggle: 'עברית', label: 'Switch the language to Hebrew' },
    theme: { label: 'Theme', light: 'Light', dark: 'Dark', system: 'As the system' },
    login: {
      title: 'Staff sign in',
      email: 'Email',
      password: 'Password',
      submit: 'Sign in',
      client_app: 'Are you a client? Open the client app',
    },
    not_found: {
      title: 'Not found',
      back: 'Go back',
    },
    error_page: {
      title: 'Something went wrong',
      description: 'The page could not be shown. Reloading usually helps.',
      reload: 'Reload',
    },
    empty: {
      title: 'Nothing to show yet',
      message: '%{name} will appear here once this part of the console is connected.',
    },
    clients: {
      tabs: { profile: 'Profile', subscriptions: 'Subscriptions', payments: 'Payments', notes: 'Notes' },
      not_found: 'This client does not exist or was removed.',
      back_to_list: 'Back to clients',
      profile: {
        details: 'Details',
        change_status: 'Change status',
        change_role: 'Change role',
        security: 'Security',
        new_password: 'New password',
        set_password: 'Set password',
        save: 'Save',
        status_changed: 'The status was changed',
        role_changed: 'The role was changed',
        password_set: 'The password was set',
      },
      notes: {
        new_note: 'New note',
        add: 'Add note',
        empty: 'No notes yet.',
        delete: 'Delete note',
        delete_title: 'Delete this note?',
        delete_content: 'The note will be removed for every staff member.',
        added: 'The note was added',
        deleted: 'The note was deleted',
        by: 'By %{name}',
      },
      subscriptions_empty: 'The client\u2019s subscriptions will appear here.',
      payments_empty: 'The client\u2019s payments will appear here.',
    },
    activity_log: {
      changes: 'Changes',
      field: 'Field',
      before: 'Before',
      after: 'After',
      no_changes: 'This entry records no field changes.',
      empty_value: '(empty)',
    },
  },
};
