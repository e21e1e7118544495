import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import LightModeIcon from '@mui/icons-material/LightMode';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import SettingsBrightnessIcon from '@mui/icons-material/SettingsBrightness';
import { THEME_MODES, type ThemeMode } from '@kupa/proto';
import { useT, type MessageKey } from '../../lib/i18n/i18n';
import { useThemeModeStore } from '../../lib/theme/theme-mode';

const ICONS: Record<ThemeMode, typeof LightModeIcon> = {
  light: LightModeIcon,
  dark: DarkModeIcon,
  system: SettingsBrightnessIcon,
};

const LABELS: Record<ThemeMode, MessageKey> = { light: 'theme.light', dark: 'theme.dark', system: 'theme.system' };

/** Light, dark or follow the system; each choice is a labelled toggle button so it can be reached by name. */
export function ThemeSwitcher() {
  const { t } = useT();
  const mode = useThemeModeStore((state) => state.mode);
  const setMode = useThemeModeStore((state) => state.setMode);
  return (
    <ToggleButtonGroup
      data-testid="theme-toggle"
      aria-label={t('theme.label')}
      size="small"
      exclusive
      value={mode}
      onChange={(_event, value: ThemeMode | null) => {
        if (value) setMode(value);
      }}
      sx={{ bgcolor: 'background.paper' }}
    >
      {THEME_MODES.map((value) => {
        const Icon = ICONS[value];
        return (
          <Tooltip key={value} title={t(LABELS[value])}>
            <ToggleButton value={value} aria-label={t(LABELS[value])} data-testid={`theme-${value}`}>
              <Icon fontSize="small" />
            </ToggleButton>
          </Tooltip>
        );
      })}
    </ToggleButtonGroup>
  );
}
