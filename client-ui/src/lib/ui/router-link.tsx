import { createLink } from '@tanstack/react-router';
import MuiLink from '@mui/material/Link';
import Button from '@mui/material/Button';

/** MUI's link and button wired to the router, so they navigate in-app and preload on intent. */
export const RouterLink = createLink(MuiLink);
export const RouterButton = createLink(Button);
