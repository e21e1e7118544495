import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useT } from '../i18n/i18n';
import { useToastStore } from './toast-store';

/** The visible toasts, newest last, pinned to the bottom of the screen on the reading-start side. */
export function ToastContainer() {
  const toasts = useToastStore((state) => state.toasts);
  const dismiss = useToastStore((state) => state.dismiss);
  const { t } = useT();
  return (
    <Stack
      component="section"
      aria-label={t('toast.region')}
      data-testid="toast-container"
      spacing={1}
      sx={{
        position: 'fixed',
        bottom: 16,
        insetInlineStart: 16,
        zIndex: (theme) => theme.zIndex.snackbar,
        width: 'min(420px, calc(100vw - 32px))',
      }}
    >
      {toasts.map((toast) => (
        <Alert
          key={toast.id}
          severity={toast.severity}
          variant="filled"
          data-testid="toast"
          onClose={() => dismiss(toast.id)}
          slotProps={{ closeButton: { 'aria-label': t('toast.close'), title: t('toast.close') } }}
        >
          <AlertTitle>{toast.title}</AlertTitle>
          {toast.message}
          {toast.retry && (
            <Box sx={{ mt: 1 }}>
              <Button
                color="inherit"
                variant="outlined"
                size="small"
                data-testid="toast-retry"
                onClick={() => {
                  dismiss(toast.id);
                  toast.retry?.();
                }}
              >
                {t('toast.retry')}
              </Button>
            </Box>
          )}
        </Alert>
      ))}
    </Stack>
  );
}
