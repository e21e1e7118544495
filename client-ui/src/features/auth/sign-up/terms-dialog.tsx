import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useT } from '../../../lib/i18n/i18n';

export function TermsDialog({ open, onClose, onAgree }: { open: boolean; onClose: () => void; onAgree: () => void }) {
  const { t } = useT();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="terms-title" data-testid="terms-dialog">
      <DialogTitle id="terms-title">{t('signUp.terms.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('signUp.terms.body')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('signUp.terms.close')}</Button>
        <Button variant="contained" onClick={onAgree} data-testid="terms-agree">
          {t('signUp.terms.agree')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
