import createCache, { type EmotionCache } from '@emotion/cache';
import { prefixer } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';

/**
 * One Emotion cache per direction. The cache is global to the page, so the app picks exactly one at the root
 * instead of nesting an RTL cache inside an LTR one (which MUI does not support). The RTL cache runs every style
 * through the RTL plugin, turning `margin-left` into `margin-right` and so on.
 */
export function createDirectionCache(direction: 'rtl' | 'ltr'): EmotionCache {
  return direction === 'rtl'
    ? createCache({ key: 'kupa-rtl', stylisPlugins: [prefixer, rtlPlugin] })
    : createCache({ key: 'kupa-ltr', stylisPlugins: [prefixer] });
}
