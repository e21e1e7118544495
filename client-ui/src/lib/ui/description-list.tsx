import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** One fact of a description list: its label, its value and the test id the value carries. */
export type DescriptionRow = [label: ReactNode, value: ReactNode, testId: string];

/**
 * Read-only facts as a `<dl>`: labels beside their values from the small breakpoint up, stacked below it. The pairs
 * sit in `display: contents` boxes so that the grid lays out the `<dt>` and `<dd>` themselves.
 */
export function DescriptionList({ rows }: { rows: readonly DescriptionRow[] }) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
        columnGap: 4,
        rowGap: 1.5,
        m: 0,
      }}
    >
      {rows.map(([label, value, testId]) => (
        <Box key={testId} sx={{ display: 'contents' }}>
          <Typography component="dt" color="text.secondary">
            {label}
          </Typography>
          {/* Long unbroken values (ids, e-mails, a note without spaces) wrap rather than widen the page. */}
          <Typography
            component="dd"
            sx={{ m: 0, fontWeight: 500, minWidth: 0, overflowWrap: 'anywhere' }}
            data-testid={testId}
          >
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
