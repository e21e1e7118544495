import { Box } from '@mui/material';
import { type ReactNode } from 'react';

/**
 * The first line of a record's card on a phone: what the record is at the start, its state (a status chip, an
 * amount) at the end, wrapping below it when the screen is too narrow for both.
 */
export function CardLine({ children, end, testId }: { children: ReactNode; end?: ReactNode; testId?: string }) {
  return (
    <Box
      component="span"
      data-testid={testId}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}
    >
      <Box component="span" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Box>
      {end ? <Box component="span">{end}</Box> : null}
    </Box>
  );
}
