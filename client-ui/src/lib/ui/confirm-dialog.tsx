import { type ReactNode, useId } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useT } from '../i18n/i18n';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What happens on confirmation, in the user's words; read as the dialog's description. */
  children: ReactNode;
  confirmLabel: string;
  /** Destructive actions (cancel, stop renewals, decline) confirm with the error colour. */
  destructive?: boolean;
  pending: boolean;
  confirmDisabled?: boolean;
  /** Prefix of the test ids: `{testId}-dialog`, `-text`, `-confirm`, `-cancel`. */
  testId: string;
  onConfirm: () => void;
  onClose: () => void;
}

/** A question before an action that cannot be taken back: what will happen, then confirm or go back. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { t } = useT();
  const titleId = useId();
  const textId = useId();
  const close = () => {
    if (!props.pending) props.onClose();
  };
  return (
    <Dialog
      open={props.open}
      onClose={close}
      aria-labelledby={titleId}
      aria-describedby={textId}
      fullWidth
      maxWidth="sm"
      data-testid={`${props.testId}-dialog`}
    >
      <DialogTitle id={titleId}>{props.title}</DialogTitle>
      <DialogContent id={textId} data-testid={`${props.testId}-text`}>
        {props.children}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={props.pending} data-testid={`${props.testId}-cancel`}>
          {t('common.back')}
        </Button>
        <Button
          variant="contained"
          color={props.destructive ? 'error' : 'primary'}
          onClick={props.onConfirm}
          disabled={props.pending || props.confirmDisabled}
          data-testid={`${props.testId}-confirm`}
        >
          {props.pending ? t('form.sending') : props.confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
