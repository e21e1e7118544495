import InboxIcon from '@mui/icons-material/Inbox';
import { Box, Typography } from '@mui/material';
import { type ReactNode } from 'react';

interface EmptyStateProps {
  title: ReactNode;
  message?: ReactNode;
  testId?: string;
}

export function EmptyState({ title, message, testId }: EmptyStateProps) {
  return (
    <Box data-testid={testId} sx={{ textAlign: 'center', py: 6, px: 2, color: 'text.secondary' }}>
      <InboxIcon sx={{ fontSize: 64, opacity: 0.5 }} />
      <Typography variant="h6" component="p" sx={{ mt: 1 }}>
        {title}
      </Typography>
      {message ? <Typography variant="body2">{message}</Typography> : null}
    </Box>
  );
}
