import { type Plan, planTextIn, type UserRole } from '@kupa/proto';
import DeleteIcon from '@mui/icons-material/Delete';
import { Button, Tooltip } from '@mui/material';
import { type MouseEvent, useState } from 'react';
import {
  Confirm,
  type RaRecord,
  useDataProvider,
  useDelete,
  useNotify,
  usePermissions,
  useRecordContext,
  useRedirect,
  useTranslate,
} from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';
import { canManagePackages } from '../resources';
import { useCommand } from '../shared/use-command';
import { useLang } from '../shared/use-lang';

type PackageRecord = Plan & RaRecord;

/** Whether the signed-in staff member may change packages; while permissions load, nobody may. */
export function useCanManagePackages(): boolean {
  const { permissions } = usePermissions<UserRole | null>();
  return canManagePackages(permissions ?? null);
}

/** Table rows open on click; a button inside one must not open the row as well. */
const stopRowClick = (event: MouseEvent) => event.stopPropagation();

/** Takes the package out of sale, or offers it again, and waits for the server before saying so. */
export function PackageStatusButton() {
  const record = useRecordContext<PackageRecord>();
  const translate = useTranslate();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const { run, pending } = useCommand();
  if (!record) return null;
  const next = record.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE';
  return (
    <Button
      size="small"
      disabled={pending}
      data-testid="package-status-toggle"
      onClick={(event) => {
        stopRowClick(event);
        void run(() => dataProvider.changePlanStatus(record.id, next), {
          successMessage: 'kupa.packages.status_changed',
        });
      }}
    >
      {translate(next === 'INACTIVE' ? 'kupa.packages.deactivate' : 'kupa.packages.activate')}
    </Button>
  );
}

/**
 * Deletes the package after a confirmation that names it and says the deletion cannot be undone. The deletion waits
 * for the server (pessimistic): a package in use is refused (`error.payment.plan.cannot.be.deleted`), and the toast
 * says so in the page language.
 */
export function PackageDeleteButton({ redirectTo }: { redirectTo?: string }) {
  const record = useRecordContext<PackageRecord>();
  const translate = useTranslate();
  const lang = useLang();
  const notify = useNotify();
  const redirect = useRedirect();
  const [open, setOpen] = useState(false);
  const [deletePackage, { isPending }] = useDelete<PackageRecord>();
  if (!record) return null;
  // A package subscriptions use would be refused: say why before the click rather than after it (ADR 0078).
  const inUse = (record.subscriptionCount ?? 0) > 0;

  const confirm = () =>
    deletePackage(
      'packages',
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          notify('kupa.packages.deleted', { type: 'success' });
          if (redirectTo) redirect(redirectTo, 'packages');
        },
        onError: (error) => {
          setOpen(false);
          const message = error instanceof Error ? error.message : String(error);
          notify(message, { type: 'error', messageArgs: { _: message } });
        },
      },
    );

  return (
    <>
      <Tooltip title={inUse ? translate('kupa.packages.delete_in_use') : ''}>
        {/* A disabled button hears no pointer: the span carries the tooltip and keeps a click off the row. */}
        <span onClick={stopRowClick} data-testid="package-delete-wrapper">
          <Button
            size="small"
            color="error"
            startIcon={<DeleteIcon />}
            disabled={isPending || inUse}
            data-testid="package-delete"
            onClick={(event) => {
              stopRowClick(event);
              setOpen(true);
            }}
          >
            {translate('ra.action.delete')}
          </Button>
        </span>
      </Tooltip>
      <Confirm
        isOpen={open}
        loading={isPending}
        title="kupa.packages.delete_title"
        content="kupa.packages.delete_content"
        // A name may be Hebrew or Latin: a first-strong isolate keeps it whole inside the sentence either way.
        translateOptions={{ name: `\u2068${planTextIn(record, lang).name}\u2069` }}
        confirm="kupa.packages.delete_confirm"
        confirmColor="warning"
        onConfirm={confirm}
        onClose={(event?: MouseEvent) => {
          event?.stopPropagation();
          setOpen(false);
        }}
      />
    </>
  );
}

/**
 * Whether subscriptions use the package, and how many (ADR 0078): staff read it before trying a delete that the
 * server refuses for a package in use. Shown only where the API sent the count (staff reads).
 */
export function PackageUsageField(_props: { source?: string; label?: string; sortable?: boolean }) {
  const record = useRecordContext<PackageRecord>();
  const translate = useTranslate();
  if (!record || record.subscriptionCount === undefined) return null;
  const count = record.subscriptionCount;
  return (
    <span data-testid="package-usage" data-count={count}>
      {count > 0 ? translate('kupa.packages.in_use', { smart_count: count }) : translate('kupa.packages.not_in_use')}
    </span>
  );
}
