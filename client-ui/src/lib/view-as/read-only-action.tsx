import { cloneElement, type ReactElement } from 'react';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { usePartT } from '../i18n/dictionary-part';
import { VIEW_AS_MESSAGES } from './view-as-messages';
import { useIsViewingAs } from './view-as-store';

interface ReadOnlyActionProps {
  /** The action's control (a button, a switch); shown disabled while a staff member views the portal. */
  children: ReactElement<{ disabled?: boolean }>;
  /** Set for a control that fills its row (`fullWidth`), so its disabled frame does too. */
  fullWidth?: boolean;
}

/**
 * A write (money, profile, security) in a staff member's read-only view of a client: the control stays where the
 * client sees it, disabled, and says why on hover or focus of its frame. The API refuses it anyway
 * (`error.view.as.read.only`); this keeps the screen from offering what it would refuse.
 */
export function ReadOnlyAction({ children, fullWidth = false }: ReadOnlyActionProps) {
  const viewing = useIsViewingAs();
  const { t } = usePartT(VIEW_AS_MESSAGES);
  if (!viewing) return children;
  return (
    <Tooltip title={t('readOnlyAction')} describeChild>
      {/* A disabled button fires no events, so the frame around it carries the tooltip and takes the focus. */}
      <Box
        component="span"
        tabIndex={0}
        data-testid="view-as-read-only"
        sx={{
          display: fullWidth ? 'flex' : 'inline-flex',
          width: fullWidth ? '100%' : undefined,
          cursor: 'not-allowed',
        }}
      >
        {cloneElement(children, { disabled: true })}
      </Box>
    </Tooltip>
  );
}
