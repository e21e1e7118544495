import TranslateIcon from '@mui/icons-material/Translate';
import { Button, type SxProps, type Theme } from '@mui/material';
import { useTranslate } from 'react-admin';
import { switchLanguage } from '../i18n/language';
import { useLang } from '../shared/use-lang';

/** Switches between Hebrew and English. It names the other language, which is the one a click leads to. */
export function LanguageToggle({ sx }: { sx?: SxProps<Theme> }) {
  const lang = useLang();
  const translate = useTranslate();
  const next = lang === 'he' ? 'en' : 'he';
  return (
    <Button
      color="inherit"
      data-testid="lang-toggle"
      aria-label={translate('kupa.language.label')}
      lang={next}
      startIcon={<TranslateIcon />}
      onClick={() => switchLanguage(next)}
      sx={sx}
    >
      {translate('kupa.language.toggle')}
    </Button>
  );
}
