import { render } from '@testing-library/react';
import createCache, { type StylisPlugin } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { compile, middleware, prefixer, serialize, stringify } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CssBaseline from '@mui/material/CssBaseline';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { rtlDeclarations } from './rtl-declarations';

// What the app listed before: the prefixer, then stylis-plugin-rtl over each whole rule.
const BEFORE: StylisPlugin[] = [prefixer, rtlPlugin];
const AFTER: StylisPlugin[] = [rtlDeclarations, prefixer];

function rewrite(css: string, plugins: StylisPlugin[]): string {
  return serialize(compile(css), middleware([...plugins, stringify]));
}

describe('rtlDeclarations', () => {
  it.each([
    ['a property with a side', '.a{margin-left:8px;padding-right:4px;border-left:1px solid red;left:0;right:auto;}'],
    ['a value with a side', '.a{float:left;text-align:right;clear:left;transition:left 200ms,right 1s;}'],
    ['the direction', '.a{direction:ltr;}.b{direction:rtl;}'],
    ['four-value shorthands', '.a{margin:1px 2px 3px 4px;padding:0 8px 0 16px;border-width:1px 2px 3px 4px;}'],
    ['four colours', '.a{border-color:red green blue black;border-style:solid dotted none double;}'],
    ['shorthands of fewer values', '.a{margin:1px 2px 3px;padding:0 8px;border-width:1px;}'],
    ['corners', '.a{border-radius:1px 2px 3px 4px;}.b{border-radius:4px 0;}.c{border-radius:4px;}'],
    ['shadows', '.a{box-shadow:2px 3px 4px red;text-shadow:1px 1px 0 #000;box-shadow:inset -1px 0 0 rgba(0,0,0,0.1);}'],
    ['translations', '.a{transform:translateX(10px) rotate(45deg);}.b{transform:translate(-50%, 20%);}'],
    ['background positions', '.a{background-position:10% 50%;background-position-x:25%;background:url(x.png) 0 0;}'],
    ['cursors', '.a{cursor:e-resize;}.b{cursor:nw-resize;}'],
    ['a kept declaration', '.a{position:absolute;/* @noflip */left:0px;top:0;right:1px;}'],
    [
      'nesting, media and keyframes',
      '.a{left:0;&:hover{margin-right:2px;}@media (min-width:600px){padding-left:3px;}}',
    ],
    ['keyframes', '@keyframes k{0%{transform:translateX(-100%);left:0;}100%{transform:translateX(0);left:10px;}}'],
    ['important and calc', '.a{right:calc(100% - 8px) !important;margin-left:calc(2 * 8px);}'],
    ['nothing to flip', '.a{display:flex;color:red;margin-inline-start:4px;user-select:none;appearance:none;}'],
  ])('writes %s as stylis-plugin-rtl does', (_name, css) => {
    expect(rewrite(css, AFTER)).toBe(rewrite(css, BEFORE));
  });

  it('flips what it should', () => {
    expect(rewrite('.a{margin-left:8px;float:right;}', AFTER)).toBe('.a{margin-right:8px;float:left;}');
  });

  it("writes Material UI's styles of the app's components as stylis-plugin-rtl does", () => {
    const sheet = (plugins: StylisPlugin[], key: string): string => {
      const container = document.createElement('div');
      document.body.appendChild(container);
      const cache = createCache({ key, stylisPlugins: plugins, container });
      const theme = createTheme({ direction: 'rtl' });
      const view = render(
        <CacheProvider value={cache}>
          <ThemeProvider theme={theme}>
            <CssBaseline enableColorScheme />
            <Button variant="contained">a</Button>
            <Button variant="outlined" startIcon={<span />} endIcon={<span />}>
              b
            </Button>
            <IconButton edge="start">c</IconButton>
            <Chip label="d" onDelete={() => undefined} />
            <Alert severity="warning" onClose={() => undefined}>
              e
            </Alert>
            <TextField
              label="f"
              helperText="g"
              slotProps={{ input: { startAdornment: <InputAdornment position="start">h</InputAdornment> } }}
            />
            <TextField label="i" variant="filled" />
            <Switch />
            <LinearProgress />
            <Skeleton variant="rounded" />
            <List>
              <ListItemButton selected>
                <ListItemIcon>j</ListItemIcon>
                <ListItemText primary="k" secondary="l" />
              </ListItemButton>
            </List>
            <Table>
              <TableBody>
                <TableRow>
                  <TableCell align="right">m</TableCell>
                  <TableCell padding="checkbox">n</TableCell>
                </TableRow>
              </TableBody>
            </Table>
            <Drawer variant="permanent" anchor="left">
              o
            </Drawer>
          </ThemeProvider>
        </CacheProvider>,
      );
      const text = [...container.querySelectorAll('style')].map((tag) => tag.textContent).join('\n');
      view.unmount();
      container.remove();
      return text.replaceAll(key, 'KEY');
    };
    const before = sheet(BEFORE, 'rtlold');
    expect(before).toContain('margin-right');
    expect(sheet(AFTER, 'rtlnew')).toBe(before);
  });
});
