import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { SubscriptionExtensionNote, SubscriptionVoucherNote } from '@kupa/proto';
import { formatDate } from '../../../lib/format';
import { useT } from '../../../lib/i18n/i18n';
import { extensionText } from '../extension-text';

/**
 * The days added to the subscription without a payment (ADR 0089, issue 32), oldest first: "+2 days: ⟨reason⟩",
 * when and until when, after the day voucher it was started with, if it was ("Started with voucher ⟨label⟩: 30
 * days"). Who added them is staff's to know (the activity log), not the client's.
 */
export function ExtensionsSection({
  extensions = [],
  startedByVoucher,
}: {
  extensions: readonly SubscriptionExtensionNote[] | undefined;
  startedByVoucher?: SubscriptionVoucherNote;
}) {
  const { t, lang } = useT();
  if (extensions.length === 0 && !startedByVoucher) return null;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="subscription-extensions-title"
      sx={{ p: 3 }}
      data-testid="subscription-extensions"
    >
      <Typography id="subscription-extensions-title" variant="h6" component="h2" gutterBottom>
        {t('subscription.extensions.title')}
      </Typography>
      {startedByVoucher && (
        <Typography data-testid="subscription-started-by-voucher">
          <bdi>
            {t('subscription.startedByVoucher', { label: startedByVoucher.label, days: startedByVoucher.days })}
          </bdi>
        </Typography>
      )}
      <List disablePadding>
        {extensions.map((extension) => (
          <ListItem key={`${extension.extendedAt}-${extension.endDate}`} disableGutters divider>
            <ListItemText
              data-testid="subscription-extension"
              primary={<bdi>{extensionText(extension, t)}</bdi>}
              secondary={t('subscription.extension.on', {
                date: formatDate(extension.extendedAt, lang),
                end: formatDate(extension.endDate, lang),
              })}
            />
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}
