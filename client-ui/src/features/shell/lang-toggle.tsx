import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';
import TranslateIcon from '@mui/icons-material/Translate';
import { visuallyHidden } from '@mui/utils';
import { useRef } from 'react';
import { notifyError } from '../../lib/api/query-client';
import { browser } from '../../lib/browser';
import { loadLanguage, useT } from '../../lib/i18n/i18n';
import { useLangStore } from '../../lib/stores/lang-store';

/**
 * Switches between Hebrew and English. The new language's dictionary loads first (English is its own chunk, ADR 0048):
 * until it has, the page stays as it is, and if it fails the language stays and the usual error toast says so. Then
 * the choice is stored and the page reloads, so every cache, date format and the document direction start over in
 * the new language. It shows the other language's own name,
 * marked with its language, and that name is its accessible name too (what a speech-input user says must match what
 * they see); the tooltip explains it in the page's language.
 */
export function LangToggle() {
  const { t, lang } = useT();
  const setLang = useLangStore((state) => state.setLang);
  const target = lang === 'he' ? 'en' : 'he';
  const switching = useRef(false);
  const switchLanguage = async () => {
    if (switching.current) return;
    switching.current = true;
    try {
      await loadLanguage(target);
    } catch (error) {
      switching.current = false;
      notifyError(error);
      return;
    }
    setLang(target);
    browser.reload();
  };
  return (
    <Tooltip title={t('lang.toggle.label')} describeChild>
      <Button
        data-testid="lang-toggle"
        variant="outlined"
        size="small"
        color="inherit"
        onClick={() => void switchLanguage()}
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
