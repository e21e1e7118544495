import BrightnessAutoIcon from '@mui/icons-material/BrightnessAuto';
import CheckIcon from '@mui/icons-material/Check';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import { THEME_MODES, type ThemeMode } from '@kupa/proto';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { useThemeMode } from '../theme/theme-mode';

const ICONS: Record<ThemeMode, typeof LightModeIcon> = {
  light: LightModeIcon,
  dark: DarkModeIcon,
  system: BrightnessAutoIcon,
};

/** Light, dark or as the system: react-admin's own toggle knows only the first two. */
export function ThemeMenu() {
  const translate = useTranslate();
  const { mode, setMode } = useThemeMode();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const CurrentIcon = ICONS[mode];
  const label = translate('kupa.theme.label');
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          data-testid="theme-toggle"
          aria-label={label}
          aria-haspopup="menu"
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <CurrentIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {THEME_MODES.map((option) => {
          const Icon = ICONS[option];
          return (
            <MenuItem
              key={option}
              data-testid={`theme-${option}`}
              selected={option === mode}
              onClick={() => {
                setMode(option);
                setAnchor(null);
              }}
            >
              <ListItemIcon>
                <Icon fontSize="small" />
              </ListItemIcon>
              <ListItemText>{translate(`kupa.theme.${option}`)}</ListItemText>
              {option === mode ? <CheckIcon fontSize="small" sx={{ marginInlineStart: 1 }} /> : null}
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
