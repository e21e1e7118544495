import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';

/** A screen of the authenticated area: one level-1 heading, then its content. */
export function Page({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack spacing={3} component="section" aria-labelledby="page-title">
      <Typography id="page-title" variant="h4" component="h1">
        {title}
      </Typography>
      {children}
    </Stack>
  );
}

/** What a list shows before it has anything in it: what that means for the user, and where to go from here. */
export function EmptyState({ message, action }: { message: string; action?: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 5, textAlign: 'center' }} data-testid="empty-state">
      <InboxOutlinedIcon color="disabled" sx={{ fontSize: 48 }} aria-hidden />
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {message}
      </Typography>
      {action ? <Box sx={{ mt: 2 }}>{action}</Box> : null}
    </Paper>
  );
}

/** The centred card that frames the public screens (sign-up, login, password and confirmation screens). */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, pt: 8 }}>
      <Paper component="main" elevation={2} sx={{ width: '100%', maxWidth: 460, p: { xs: 3, sm: 4 } }}>
        <Stack spacing={2.5}>
          <Typography variant="h5" component="h1">
            {title}
          </Typography>
          {children}
        </Stack>
      </Paper>
    </Box>
  );
}
