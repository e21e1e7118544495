import CloseIcon from '@mui/icons-material/Close';
import FilterListIcon from '@mui/icons-material/FilterList';
import {
  Badge,
  Box,
  Button,
  Drawer,
  IconButton,
  type Theme,
  Toolbar,
  Tooltip,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { cloneElement, type ReactElement, type ReactNode, useId, useState } from 'react';
import { FilterButton, FilterContext, FilterForm, TopToolbar, useListContext, useTranslate } from 'react-admin';

/**
 * Below MUI's medium breakpoint (900 px: phones and small tablets) lists show one card per record and their filters
 * move into a drawer, so that no screen of the console scrolls sideways (docs/product.md, Screens on a phone).
 */
export function useIsPhone(): boolean {
  return useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'), { noSsr: true });
}

/** The filter that stays above a list on a phone: the keyword search, the one most people use. */
const INLINE_ON_PHONE = 'keyWord';

export type FilterElement = ReactElement<{ source: string; alwaysOn?: boolean }>;

/**
 * A list's filters as the screen width wants them: all of them inline on a wide screen; on a phone the keyword
 * search inline and the rest (every one shown, since the drawer has room for them) in the filter drawer.
 */
export function useResponsiveFilters(filters: FilterElement[]): { inline: FilterElement[]; drawer: FilterElement[] } {
  const phone = useIsPhone();
  if (!phone) return { inline: filters, drawer: [] };
  return {
    inline: filters.filter((filter) => filter.props.source === INLINE_ON_PHONE),
    drawer: filters
      .filter((filter) => filter.props.source !== INLINE_ON_PHONE)
      .map((filter) => cloneElement(filter, { alwaysOn: true })),
  };
}

/** How many of these filters hold a value, for the badge on the drawer's button. */
function useActiveCount(filters: FilterElement[]): number {
  const { filterValues } = useListContext();
  const values = (filterValues ?? {}) as Record<string, unknown>;
  return filters.filter((filter) => {
    const value = values[filter.props.source];
    return value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
  }).length;
}

/**
 * The phone's filter button and drawer. The drawer comes up from the bottom edge, which is the same in both
 * directions, and holds react-admin's own filter form: values apply as they are typed, exactly as inline.
 */
export function FilterDrawerButton({ filters }: { filters: FilterElement[] }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const active = useActiveCount(filters);
  const titleId = useId();
  if (filters.length === 0) return null;
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} data-testid="filters-open" aria-haspopup="dialog">
        <Badge badgeContent={active} color="primary" sx={{ marginInlineEnd: 1 }}>
          <FilterListIcon fontSize="small" />
        </Badge>
        {translate('kupa.filters.open')}
      </Button>
      <Drawer
        anchor="bottom"
        open={open}
        onClose={() => setOpen(false)}
        slotProps={{
          paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { maxHeight: '85vh' } },
        }}
      >
        <Toolbar variant="dense" sx={{ justifyContent: 'space-between' }}>
          <Typography id={titleId} variant="h6" component="h2">
            {translate('kupa.filters.title')}
          </Typography>
          <Tooltip title={translate('ra.action.close')}>
            <IconButton edge="end" onClick={() => setOpen(false)} aria-label={translate('ra.action.close')}>
              <CloseIcon />
            </IconButton>
          </Tooltip>
        </Toolbar>
        <Box
          data-testid="filters-drawer"
          sx={{
            px: 2,
            pb: 2,
            // One input per line, each as wide as the drawer.
            '& .RaFilterForm-root': { flexDirection: 'column', alignItems: 'stretch' },
            '& .filter-field, & .filter-field > .MuiFormControl-root': { width: '100%' },
            '& .RaFilterFormInput-spacer': { display: 'none' },
          }}
        >
          {/* react-admin's form reads its inputs from the list's filter context, so the drawer gives it its own. */}
          <FilterContext.Provider value={filters}>
            <FilterForm />
          </FilterContext.Provider>
          <Button
            variant="contained"
            fullWidth
            sx={{ mt: 2 }}
            onClick={() => setOpen(false)}
            data-testid="filters-done"
          >
            {translate('kupa.filters.done')}
          </Button>
        </Box>
      </Drawer>
    </>
  );
}

/**
 * A list's top toolbar: react-admin's filter button on a wide screen, the filter drawer on a phone, then the list's
 * own actions.
 */
export function ResponsiveListActions({ drawer, children }: { drawer: FilterElement[]; children?: ReactNode }) {
  const phone = useIsPhone();
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      {phone ? <FilterDrawerButton filters={drawer} /> : <FilterButton />}
      {children}
    </TopToolbar>
  );
}
