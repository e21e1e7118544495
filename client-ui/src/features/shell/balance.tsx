import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import { useMe } from '../../lib/api/use-me';
import { formatDollars } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';

/** The current balance from `/users/me`; the amount is an LTR token, isolated with `<bdi>` inside Hebrew text. */
export function Balance() {
  const { t, lang } = useT();
  const { data } = useMe();
  const text = data ? formatDollars(data.balance, lang) : '…';
  return (
    <Chip
      data-testid="balance"
      icon={<AccountBalanceWalletOutlinedIcon />}
      aria-busy={!data}
      label={
        <>
          <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
            {t('balance.label')}:{' '}
          </Box>
          <bdi dir="ltr">{text}</bdi>
        </>
      }
      variant="outlined"
      // The app bar's text colour works in both palettes, so the chip takes it rather than a colour of its own.
      sx={{ color: 'inherit', borderColor: 'currentColor', fontWeight: 600, '& .MuiChip-icon': { color: 'inherit' } }}
    />
  );
}
