import { type Plan, planTextIn } from '@kupa/proto';
import { Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { useLang } from '../shared/use-lang';

/**
 * A package's name in the page language, or in the other one when staff gave none in this one
 * (docs/adr/0075-demo-catalogue-and-bilingual-packages.md): what the lists show, so an English console never shows a
 * blank row.
 */
export function PackageNameField(_props: { label?: string; source?: string }) {
  const plan = useRecordContext<Plan>();
  const lang = useLang();
  if (!plan) return null;
  return (
    <Typography component="span" variant="body2" dir="auto" data-testid="package-name-text">
      {planTextIn(plan, lang).name}
    </Typography>
  );
}
