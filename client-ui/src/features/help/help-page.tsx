import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import TelegramIcon from '@mui/icons-material/Telegram';
import MailOutlineIcon from '@mui/icons-material/MailOutline';
import { LIMITS } from '@kupa/proto';
import { useT, type MessageKey } from '../../lib/i18n/i18n';
import { Page } from '../../lib/ui/page';
import { SUPPORT_EMAIL, SUPPORT_TELEGRAM_URL } from '../../app/access';

const FAQ: ReadonlyArray<readonly [MessageKey, MessageKey]> = [
  ['help.q1', 'help.a1'],
  ['help.q2', 'help.a2'],
  ['help.q3', 'help.a3'],
  ['help.q4', 'help.a4'],
];

/** Frequently asked questions and the support contacts (Telegram, e-mail). */
export function HelpPage() {
  const { t } = useT();
  return (
    <Page title={t('help.title')}>
      <section aria-labelledby="faq-title">
        <Typography id="faq-title" variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('help.faq')}
        </Typography>
        {FAQ.map(([question, answer]) => (
          <Accordion key={question} disableGutters>
            <AccordionSummary expandIcon={<ExpandMoreIcon />}>
              <Typography component="h3" sx={{ fontWeight: 600 }}>
                {t(question)}
              </Typography>
            </AccordionSummary>
            <AccordionDetails>
              <Typography color="text.secondary">{t(answer, { days: LIMITS.trialDays })}</Typography>
            </AccordionDetails>
          </Accordion>
        ))}
      </section>
      <Paper variant="outlined" component="section" aria-labelledby="contact-title" sx={{ p: 3 }}>
        <Typography id="contact-title" variant="h6" component="h2" sx={{ mb: 2 }}>
          {t('help.contact')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Button
            variant="outlined"
            startIcon={<TelegramIcon />}
            href={SUPPORT_TELEGRAM_URL}
            target="_blank"
            rel="noopener noreferrer"
          >
            {t('help.telegram')}
          </Button>
          <Button variant="outlined" startIcon={<MailOutlineIcon />} href={`mailto:${SUPPORT_EMAIL}`}>
            {/* One span, so the flex layout of the button keeps the space between the label and the address. */}
            <span>
              {t('help.email')}: <bdi>{SUPPORT_EMAIL}</bdi>
            </span>
          </Button>
        </Stack>
      </Paper>
    </Page>
  );
}
