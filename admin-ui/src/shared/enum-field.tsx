import { enumLabel, type EnumName } from '@kupa/proto';
import { Chip } from '@mui/material';
import { type FieldProps, useFieldValue } from 'react-admin';
import { useLang } from './use-lang';

interface EnumFieldProps extends FieldProps {
  enumName: EnumName;
  chip?: boolean;
}

/** Shows an enum value by its label in the page language (the raw value stays in `data-value` for tests). */
export function EnumField({ enumName, chip = false, emptyText, ...props }: EnumFieldProps) {
  const value = useFieldValue(props);
  const lang = useLang();
  if (value === undefined || value === null || value === '') return emptyText ? <span>{emptyText}</span> : null;
  const label = enumLabel(enumName, String(value), lang);
  return chip ? (
    <Chip size="small" label={label} data-value={String(value)} />
  ) : (
    <span data-value={String(value)}>{label}</span>
  );
}
