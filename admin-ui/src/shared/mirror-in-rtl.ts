import type { SxProps, Theme } from '@mui/material/styles';

/**
 * For icons that point a way (back, forward, out, send): on a right-to-left page they point the other way, as the
 * layout does. Icons that stand for a thing (a lock, a card) stay as they are.
 */
export const mirrorInRtl: SxProps<Theme> = (theme) => (theme.direction === 'rtl' ? { transform: 'scaleX(-1)' } : {});
