import TranslateIcon from '@mui/icons-material/Translate';
import { Box, Button, type SxProps, type Theme, Tooltip } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { switchLanguage } from '../i18n/language';
import { useText, useTextLang } from '../i18n/text';

/**
 * Switches between Hebrew and English. It shows the other language's own name, which is the one a click leads to,
 * and that name (marked with its language) is also its accessible name, so what a speech-input user says matches
 * what they see; the tooltip explains it in the page's language. On a phone only the icon shows and the name stays
 * for screen readers.
 */
export function LanguageToggle({ sx }: { sx?: SxProps<Theme> }) {
  const lang = useTextLang();
  const translate = useText();
  const next = lang === 'he' ? 'en' : 'he';
  return (
    <Tooltip title={translate('kupa.language.label')} describeChild>
      <Button
        color="inherit"
        data-testid="lang-toggle"
        onClick={() => switchLanguage(next)}
        sx={[{ minWidth: 0 }, ...(Array.isArray(sx) ? sx : [sx])]}
      >
        <TranslateIcon />
        <Box
          component="span"
          lang={next}
          sx={(theme) => ({ marginInlineStart: 1, [theme.breakpoints.down('sm')]: visuallyHidden })}
        >
          {translate('kupa.language.toggle')}
        </Box>
      </Button>
    </Tooltip>
  );
}
