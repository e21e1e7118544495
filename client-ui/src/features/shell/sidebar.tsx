import { createLink, useLocation } from '@tanstack/react-router';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import SubscriptionsOutlinedIcon from '@mui/icons-material/SubscriptionsOutlined';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import PersonOutlineIcon from '@mui/icons-material/PersonOutline';
import GroupAddOutlinedIcon from '@mui/icons-material/GroupAddOutlined';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import LogoutIcon from '@mui/icons-material/Logout';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { mirrorInRtl } from '../../lib/ui/mirror-in-rtl';
import type { UserRole } from '@kupa/proto';
import { usePartT } from '../../lib/i18n/dictionary-part';
import { useT } from '../../lib/i18n/i18n';
import { VIEW_AS_MESSAGES } from '../../lib/view-as/view-as-messages';
import { SIDEBAR, type AppPath } from '../../app/access';
import { useStreamingSiteUrl } from '../../lib/api/use-support-contacts';
import { endViewAs } from '../../lib/view-as/end-view-as';
import { useIsViewingAs } from '../../lib/view-as/view-as-store';

const ListItemLink = createLink(ListItemButton);

const ICONS: Partial<Record<AppPath, typeof HelpOutlineIcon>> = {
  '/subscriptions': SubscriptionsOutlinedIcon,
  '/packages': Inventory2OutlinedIcon,
  '/payments': ReceiptLongOutlinedIcon,
  '/my-profile': PersonOutlineIcon,
  '/referrals': GroupAddOutlinedIcon,
  '/help': HelpOutlineIcon,
};

/**
 * The role's sidebar entries (docs/product.md, Screens), then log out and the external link to the streaming
 * service's site where the deployment configures one (`STREAMING_SITE_URL`). Each link sits in its own list item, so
 * the navigation reads as a list of links.
 */
export function Sidebar({ role, onNavigate }: { role: UserRole; onNavigate?: () => void }) {
  const { t } = useT();
  const { t: tViewAs } = usePartT(VIEW_AS_MESSAGES);
  const pathname = useLocation({ select: (location) => location.pathname });
  const serviceSiteUrl = useStreamingSiteUrl();
  const viewing = useIsViewingAs();
  return (
    <nav aria-label={t('nav.label')} data-testid="sidebar">
      <List>
        {SIDEBAR[role].map((entry) => {
          const Icon = ICONS[entry.path] ?? HelpOutlineIcon;
          // A screen below an entry (a payment, the transfer form) keeps its entry marked as the current section.
          const selected = pathname === entry.path || pathname.startsWith(`${entry.path}/`);
          return (
            <ListItem key={entry.path} disablePadding>
              <ListItemLink
                to={entry.path}
                selected={selected}
                aria-current={selected ? 'page' : undefined}
                data-testid={entry.testId}
                onClick={onNavigate}
              >
                <ListItemIcon>
                  <Icon />
                </ListItemIcon>
                <ListItemText primary={t(entry.label)} />
              </ListItemLink>
            </ListItem>
          );
        })}
      </List>
      <Divider />
      <List>
        {/* Preloading would run the logout screen on hover, so this one link never preloads. */}
        <ListItem disablePadding>
          {viewing ? (
            // A staff member's view has no sign-in to end: leaving it forgets the token (the banner's button too).
            <ListItemButton data-testid="view-as-end-nav" onClick={endViewAs}>
              <ListItemIcon>
                <LogoutIcon sx={mirrorInRtl} />
              </ListItemIcon>
              <ListItemText primary={tViewAs('end')} />
            </ListItemButton>
          ) : (
            <ListItemLink to="/logout" preload={false} data-testid="logout" onClick={onNavigate}>
              <ListItemIcon>
                <LogoutIcon sx={mirrorInRtl} />
              </ListItemIcon>
              <ListItemText primary={t('nav.logout')} />
            </ListItemLink>
          )}
        </ListItem>
        {/* Last in the list, so that its arrival with the dictionaries moves nothing above it. */}
        {serviceSiteUrl && (
          <ListItem disablePadding>
            <ListItemButton
              component="a"
              href={serviceSiteUrl}
              target="_blank"
              rel="noopener noreferrer"
              data-testid="nav-service-site"
            >
              <ListItemIcon>
                <OpenInNewIcon sx={mirrorInRtl} />
              </ListItemIcon>
              <ListItemText primary={t('nav.serviceSite')} />
            </ListItemButton>
          </ListItem>
        )}
      </List>
    </nav>
  );
}
