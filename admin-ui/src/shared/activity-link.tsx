import HistoryIcon from '@mui/icons-material/History';
import { Button } from '@mui/material';
import { Link, useTranslate } from 'react-admin';
import { useAdminPath } from './admin-path';

/** The activity log filtered by one id: the target's entries, or an operation's with what its targets got. */
export function activityLogPath(id: string): string {
  return `/activity-log?filter=${encodeURIComponent(JSON.stringify({ targetAndParentIds: id }))}`;
}

/**
 * "Activity" beside something that has entries of its own: a bulk batch (its start, its end and every target's own
 * entry, which carries the batch's id as its correlation id; ADR 0090) or a broadcast.
 */
export function ActivityLink({ id, testId }: { id: string; testId?: string }) {
  const translate = useTranslate();
  const adminPath = useAdminPath();
  return (
    <Button
      size="small"
      component={Link}
      to={adminPath(activityLogPath(id))}
      startIcon={<HistoryIcon />}
      data-testid={testId}
    >
      {translate('kupa.activity_log.its_activity')}
    </Button>
  );
}
