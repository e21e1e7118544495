import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Alert, Box, Button, Typography } from '@mui/material';
import { useState } from 'react';
import { useText } from '../i18n/text';

/**
 * The recovery codes, shown the one time they exist in clear: the server keeps only their hashes. The warning says
 * so before anything else, and the copy button puts all of them on the clipboard, one per line.
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const translate = useText();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied(true);
    } catch {
      // Without clipboard access the codes stay on screen to be copied by hand.
      setCopied(false);
    }
  };
  return (
    <Box data-testid="recovery-codes-step">
      <Typography variant="h6" component="h2" gutterBottom>
        {translate('kupa.two_factor.recovery_title')}
      </Typography>
      <Alert severity="warning" sx={{ mb: 2 }} data-testid="recovery-codes-warning">
        {translate('kupa.two_factor.recovery_warning')}
      </Alert>
      <Box
        component="ol"
        dir="ltr"
        data-testid="recovery-codes"
        // One column on a phone: two left each code half a 390 px card, and a code split over two lines is easy
        // to copy wrong. A code never wraps inside itself.
        sx={{ fontFamily: 'monospace', fontSize: '1.05rem', columns: { xs: 1, sm: 2 }, m: 0, mb: 2, ps: 4 }}
      >
        {codes.map((code) => (
          <Box component="li" key={code} sx={{ whiteSpace: 'nowrap' }}>
            {code}
          </Box>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <Button
          variant="outlined"
          startIcon={<ContentCopyIcon />}
          onClick={() => void copy()}
          data-testid="recovery-codes-copy"
        >
          {translate('kupa.two_factor.copy')}
        </Button>
        {copied ? (
          <Typography variant="body2" color="success.main" role="status" data-testid="recovery-codes-copied">
            {translate('kupa.two_factor.copied')}
          </Typography>
        ) : null}
        <Box sx={{ flex: 1 }} />
        <Button variant="contained" onClick={onDone} data-testid="recovery-codes-done">
          {translate('kupa.two_factor.saved_codes')}
        </Button>
      </Box>
    </Box>
  );
}
