import { type FormEvent, useId, useState } from 'react';
import Badge from '@mui/material/Badge';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Collapse from '@mui/material/Collapse';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import OutlinedInput from '@mui/material/OutlinedInput';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import FilterListIcon from '@mui/icons-material/FilterList';
import SearchIcon from '@mui/icons-material/Search';
import {
  PAYMENT_AGGREGATORS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PAYMENT_TYPES,
  checkKeyword,
  clientEnumLabel,
  type ClientEnumName,
  type RuleIssue,
} from '@kupa/proto';
import { useT } from '../../../lib/i18n/i18n';
import { DateField } from '../../../lib/ui/date-field';
import { elementTestId, inputTestId } from '../../../lib/ui/test-ids';
import {
  activeFilterCount,
  type CreatedDateFilter,
  type PaymentsFilterKey,
  type PaymentsSearch,
} from './payments-search';

export type FilterPatch = Partial<Pick<PaymentsSearch, PaymentsFilterKey>>;

interface EnumFilterProps<T extends string> {
  enumName: ClientEnumName;
  values: readonly T[];
  selected: readonly T[] | undefined;
  label: string;
  testId: string;
  onChange: (selected: T[] | undefined) => void;
}

/** A multiple choice over one enum, labelled in the current language; choosing applies at once. */
function EnumFilter<T extends string>({ enumName, values, selected, label, testId, onChange }: EnumFilterProps<T>) {
  const { lang } = useT();
  const labelId = `${testId}-label`;
  return (
    <FormControl size="small" sx={{ minWidth: 180, maxWidth: 260 }}>
      <InputLabel id={labelId}>{label}</InputLabel>
      <Select<T[]>
        multiple
        labelId={labelId}
        value={[...(selected ?? [])]}
        input={<OutlinedInput label={label} />}
        renderValue={(chosen) => chosen.map((value) => clientEnumLabel(enumName, value, lang)).join(', ')}
        onChange={(event) => {
          const value = event.target.value;
          // MUI hands over a comma-joined string only for autofill of the hidden input; the menu always gives a list.
          const list = (typeof value === 'string' ? value.split(',') : value).filter((item): item is T =>
            values.includes(item as T),
          );
          onChange(list.length > 0 ? list : undefined);
        }}
        SelectDisplayProps={elementTestId(testId)}
      >
        {values.map((value) => (
          <MenuItem key={value} value={value} data-testid={`${testId}-${value}`}>
            <Checkbox size="small" checked={selected?.includes(value) ?? false} sx={{ p: 0.5, marginInlineEnd: 1 }} />
            <ListItemText primary={clientEnumLabel(enumName, value, lang)} />
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

/** The payment id filter takes a positive whole number: the API refuses any other id filter. */
export function checkPaymentIdFilter(value: string): RuleIssue | null {
  if (!/^-?\d+$/.test(value)) return { error: 'error.validation.integer' };
  const id = Number(value);
  if (id <= 0) return { error: 'error.validation.must.be.positive' };
  if (!Number.isSafeInteger(id)) return { error: 'error.validation.invalid.input' };
  return null;
}

interface PaymentsFiltersProps {
  search: PaymentsSearch;
  onChange: (patch: FilterPatch) => void;
  onReset: () => void;
  canReset: boolean;
}

/**
 * The list's filters. Choices and dates apply as soon as they change; the keyword and id are typed, so they apply
 * on Enter or the search button, after proto's checks. The parent keys this component by the URL's keyword and id,
 * so the typed text starts over whenever they change elsewhere (reset, back button). On a phone they fold away
 * behind a button that counts the filters in use, so the payments come first.
 */
export function PaymentsFilters({ search, onChange, onReset, canReset }: PaymentsFiltersProps) {
  const { t, issueMessage } = useT();
  const [keyWord, setKeyWord] = useState(search.keyWord ?? '');
  const [id, setId] = useState(search.id === undefined ? '' : String(search.id));
  const [errors, setErrors] = useState<{ keyWord?: string; id?: string }>({});
  const phone = useMediaQuery(useTheme().breakpoints.down('md'), { noSsr: true });
  const [open, setOpen] = useState(false);
  const formId = useId();
  const active = activeFilterCount(search);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const keyWordText = keyWord.trim();
    const idText = id.trim();
    const next = {
      keyWord: issueMessage(checkKeyword(keyWordText)),
      id: idText === '' ? undefined : issueMessage(checkPaymentIdFilter(idText)),
    };
    setErrors(next);
    if (next.keyWord || next.id) return;
    onChange({ keyWord: keyWordText === '' ? undefined : keyWordText, id: idText === '' ? undefined : Number(idText) });
  };

  const setDate = (edge: keyof CreatedDateFilter, value: string) => {
    const createdDate: CreatedDateFilter = { ...search.createdDate, [edge]: value === '' ? undefined : value };
    const empty = createdDate.from === undefined && createdDate.to === undefined;
    onChange({ createdDate: empty ? undefined : createdDate });
  };

  return (
    <Paper variant="outlined" sx={{ p: phone ? 1 : 2 }}>
      {phone ? (
        <Button
          onClick={() => setOpen((current) => !current)}
          aria-expanded={open}
          aria-controls={formId}
          startIcon={
            <Badge badgeContent={active} color="primary">
              <FilterListIcon />
            </Badge>
          }
          endIcon={open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
          data-testid="payments-filters-toggle"
        >
          {t('payments.filters.toggle')}
        </Button>
      ) : null}
      {/* Folded on a phone, the form is not rendered at all: its dozen fields were most of the page's first render
          (ADR 0049). The wrapper keeps the id the toggle's aria-controls names. */}
      <div id={formId}>
        <Collapse in={!phone || open} mountOnEnter unmountOnExit>
          <Stack
            component="form"
            role="search"
            aria-label={t('payments.filters.label')}
            noValidate
            onSubmit={submit}
            direction="row"
            useFlexGap
            spacing={1.5}
            sx={{ flexWrap: 'wrap', alignItems: 'flex-start', pt: phone ? 1 : 0 }}
          >
            <TextField
              size="small"
              label={t('payments.filters.keyWord')}
              value={keyWord}
              onChange={(event) => {
                setKeyWord(event.target.value);
                setErrors((current) => ({ ...current, keyWord: undefined }));
              }}
              error={Boolean(errors.keyWord)}
              helperText={errors.keyWord}
              sx={{ minWidth: 200 }}
              slotProps={{ htmlInput: { ...inputTestId('payments-filter-keyword'), type: 'search' } }}
            />
            <TextField
              size="small"
              label={t('payments.filters.id')}
              value={id}
              onChange={(event) => {
                setId(event.target.value);
                setErrors((current) => ({ ...current, id: undefined }));
              }}
              error={Boolean(errors.id)}
              helperText={errors.id}
              sx={{ width: 170 }}
              slotProps={{ htmlInput: { ...inputTestId('payments-filter-id'), inputMode: 'numeric', dir: 'ltr' } }}
            />
            <Button
              type="submit"
              variant="contained"
              startIcon={<SearchIcon />}
              data-testid="payments-filter-apply"
              sx={{ height: 40 }}
            >
              {t('payments.filters.apply')}
            </Button>
            <EnumFilter
              enumName="paymentStatus"
              values={PAYMENT_STATUSES}
              selected={search.statuses}
              label={t('payments.filters.statuses')}
              testId="payments-filter-statuses"
              onChange={(statuses) => onChange({ statuses })}
            />
            <EnumFilter
              enumName="paymentType"
              values={PAYMENT_TYPES}
              selected={search.types}
              label={t('payments.filters.types')}
              testId="payments-filter-types"
              onChange={(types) => onChange({ types })}
            />
            <EnumFilter
              enumName="paymentMethod"
              values={PAYMENT_METHODS}
              selected={search.methods}
              label={t('payments.filters.methods')}
              testId="payments-filter-methods"
              onChange={(methods) => onChange({ methods })}
            />
            <EnumFilter
              enumName="paymentAggregator"
              values={PAYMENT_AGGREGATORS}
              selected={search.aggregators}
              label={t('payments.filters.aggregators')}
              testId="payments-filter-aggregators"
              onChange={(aggregators) => onChange({ aggregators })}
            />
            <DateField
              size="small"
              label={t('payments.filters.from')}
              value={search.createdDate?.from?.slice(0, 10) ?? ''}
              onChange={(value) => setDate('from', value)}
              max={search.createdDate?.to?.slice(0, 10)}
              testId="payments-filter-from"
            />
            <DateField
              size="small"
              label={t('payments.filters.to')}
              value={search.createdDate?.to?.slice(0, 10) ?? ''}
              onChange={(value) => setDate('to', value)}
              min={search.createdDate?.from?.slice(0, 10)}
              testId="payments-filter-to"
            />
            <Button
              variant="text"
              onClick={onReset}
              disabled={!canReset}
              data-testid="payments-filter-reset"
              sx={{ height: 40 }}
            >
              {t('payments.filters.reset')}
            </Button>
          </Stack>
        </Collapse>
      </div>
    </Paper>
  );
}
