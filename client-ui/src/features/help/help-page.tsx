import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { LIMITS } from '@kupa/proto';
import { hasAnyContact, useSupportContacts } from '../../lib/api/use-support-contacts';
import { useT, type MessageKey } from '../../lib/i18n/i18n';
import { Page } from '../../lib/ui/page';
import { SupportLinks } from './support-links';

const FAQ: ReadonlyArray<readonly [MessageKey, MessageKey]> = [
  ['help.q.topUp', 'help.a.topUp'],
  ['help.q.buy', 'help.a.buy'],
  ['help.q.renew', 'help.a.renew'],
  ['help.q.cancel', 'help.a.cancel'],
  ['help.q.trial', 'help.a.trial'],
  ['help.q.referrals', 'help.a.referrals'],
  ['help.q.contact', 'help.a.contact'],
];

/** Frequently asked questions and the support contacts the deployment configured (Telegram, e-mail). */
export function HelpPage() {
  const { t } = useT();
  const { contacts } = useSupportContacts();
  return (
    <Page title={t('help.title')}>
      <section aria-labelledby="faq-title">
        <Typography id="faq-title" variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('help.faq')}
        </Typography>
        {FAQ.map(([question, answer]) => (
          <Accordion key={question} disableGutters data-testid="faq-item">
            {/* MUI wraps the summary in an <h3> of its own; the question inside it is not a second heading. */}
            <AccordionSummary expandIcon={<ExpandMoreIcon />}>
              <Typography component="span" sx={{ fontWeight: 600 }}>
                {t(question)}
              </Typography>
            </AccordionSummary>
            <AccordionDetails>
              <Typography color="text.secondary">{t(answer, { days: LIMITS.trialDays })}</Typography>
            </AccordionDetails>
          </Accordion>
        ))}
      </section>
      {hasAnyContact(contacts) && (
        <Paper
          variant="outlined"
          component="section"
          aria-labelledby="contact-title"
          sx={{ p: 3 }}
          data-testid="help-contacts"
        >
          <Typography id="contact-title" variant="h6" component="h2" sx={{ mb: 2 }}>
            {t('help.contact')}
          </Typography>
          <SupportLinks contacts={contacts} variant="button" />
        </Paper>
      )}
    </Page>
  );
}
