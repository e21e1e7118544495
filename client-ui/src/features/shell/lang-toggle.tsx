import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';
import TranslateIcon from '@mui/icons-material/Translate';
import { visuallyHidden } from '@mui/utils';
import { browser } from '../../lib/browser';
import { useT } from '../../lib/i18n/i18n';
import { useLangStore } from '../../lib/stores/lang-store';

/**
 * Switches between Hebrew and English. The choice is stored first and the page then reloads, so every cache,
 * date format and the document direction start over in the new language. It shows the other language's own name,
 * marked with its language, and that name is its accessible name too (what a speech-input user says must match what
 * they see); the tooltip explains it in the page's language.
 */
export function LangToggle() {
  const { t, lang } = useT();
  const setLang = useLangStore((state) => state.setLang);
  const target = lang === 'he' ? 'en' : 'he';
  return (
    <Tooltip title={t('lang.toggle.label')} describeChild>
      <Button
        data-testid="lang-toggle"
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
        {/* On narrow screens only the icon shows; the name stays for screen readers. */}
        <TranslateIcon fontSize="small" />
        <Box
          component="span"
          lang={target}
          sx={(theme) => ({ marginInlineStart: 1, [theme.breakpoints.down('sm')]: visuallyHidden })}
        >
          {t('lang.toggle.text')}
        </Box>
      </Button>
    </Tooltip>
  );
}
