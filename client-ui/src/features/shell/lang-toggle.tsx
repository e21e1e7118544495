import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TranslateIcon from '@mui/icons-material/Translate';
import { browser } from '../../lib/browser';
import { useT } from '../../lib/i18n/i18n';
import { useLangStore } from '../../lib/stores/lang-store';

/**
 * Switches between Hebrew and English. The choice is stored first and the page then reloads, so every cache,
 * date format and the document direction start over in the new language.
 */
export function LangToggle() {
  const { t, lang } = useT();
  const setLang = useLangStore((state) => state.setLang);
  const target = lang === 'he' ? 'en' : 'he';
  return (
    <Button
      data-testid="lang-toggle"
      aria-label={t('lang.toggle.label')}
      variant="outlined"
      size="small"
      color="inherit"
      onClick={() => {
        setLang(target);
        browser.reload();
      }}
      sx={{
        position: 'fixed',
        top: 12,
        insetInlineEnd: 12,
        // Above the app bar, which itself sits above the permanent drawer; below dialogs and toasts.
        zIndex: (theme) => theme.zIndex.drawer + 2,
        minWidth: 0,
        bgcolor: 'background.paper',
        color: 'text.primary',
      }}
    >
      {/* On narrow screens only the icon shows; the accessible name still says which language it switches to. */}
      <TranslateIcon fontSize="small" />
      <Box component="span" lang={target} sx={{ display: { xs: 'none', sm: 'inline' }, marginInlineStart: 1 }}>
        {t('lang.toggle.text')}
      </Box>
    </Button>
  );
}
