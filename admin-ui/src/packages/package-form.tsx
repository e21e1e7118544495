import { CURRENCIES, enumLabel, PLAN_DURATIONS_MONTHS, PLAN_STATUSES } from '@kupa/proto';
import { type ReactElement, useMemo } from 'react';
import { BooleanInput, SelectInput, SimpleForm, TextArrayInput, TextInput } from 'react-admin';
import { useEnumChoices } from '../shared/enum-choices';
import { useLang } from '../shared/use-lang';
import { packageValidators } from './package-rules';

/** What a new package starts with: on sale (by card too), in dollars, renewing by itself, no features yet. */
export const NEW_PACKAGE_DEFAULTS = Object.freeze({
  currency: 'USD',
  isRecurrent: true,
  cardPaymentAllowed: true,
  status: 'ACTIVE',
  description: '',
  nameEn: '',
  descriptionEn: '',
  features: [] as string[],
});

/**
 * The fields of a package, shared by the create and edit pages. Every field has proto's rule as its validator, so a
 * form the API would refuse is never sent; the server's answer to the rest (a name in use, a package in use) comes
 * back as a toast with its catalogue message.
 */
export function PackageForm({ toolbar }: { toolbar?: ReactElement | false }) {
  const lang = useLang();
  const validate = useMemo(() => packageValidators(lang), [lang]);
  const statusChoices = useEnumChoices('planStatus', PLAN_STATUSES);
  const currencyChoices = useEnumChoices('currency', CURRENCIES);
  const durationChoices = useMemo(
    () => PLAN_DURATIONS_MONTHS.map((months) => ({ id: months, name: enumLabel('planDuration', months, lang) })),
    [lang],
  );
  return (
    <SimpleForm toolbar={toolbar} defaultValues={NEW_PACKAGE_DEFAULTS} data-testid="package-form">
      <TextInput
        source="name"
        label="resources.packages.fields.nameHe"
        validate={validate.name}
        slotProps={{ htmlInput: { dir: 'auto', lang: 'he', 'data-testid': 'package-name' } }}
      />
      <TextInput
        source="nameEn"
        validate={validate.nameEn}
        helperText="kupa.packages.english_hint"
        slotProps={{ htmlInput: { dir: 'auto', lang: 'en', 'data-testid': 'package-name-en' } }}
      />
      <SelectInput
        source="durationInMonths"
        choices={durationChoices}
        translateChoice={false}
        validate={validate.required}
        data-testid="package-duration"
      />
      <TextInput
        source="price"
        validate={validate.price}
        slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr', 'data-testid': 'package-price' } }}
      />
      <SelectInput source="currency" choices={currencyChoices} translateChoice={false} validate={validate.required} />
      <BooleanInput source="isRecurrent" />
      <BooleanInput source="cardPaymentAllowed" data-testid="package-card-payment-allowed" />
      <TextInput
        source="description"
        label="resources.packages.fields.descriptionHe"
        multiline
        minRows={2}
        validate={validate.description}
        slotProps={{ htmlInput: { dir: 'auto', lang: 'he', 'data-testid': 'package-description' } }}
      />
      <TextInput
        source="descriptionEn"
        multiline
        minRows={2}
        validate={validate.description}
        slotProps={{ htmlInput: { dir: 'auto', lang: 'en', 'data-testid': 'package-description-en' } }}
      />
      <TextArrayInput source="features" validate={validate.features} />
      <SelectInput source="status" choices={statusChoices} translateChoice={false} validate={validate.required} />
    </SimpleForm>
  );
}
