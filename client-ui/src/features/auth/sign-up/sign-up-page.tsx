import { type FormEvent, useEffect, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { authApi } from '../../../lib/api/endpoints';
import { fieldErrorsOf } from '../../../lib/api/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { useReferralStore } from '../../../lib/stores/referral-store';
import { AuthCard } from '../../../lib/ui/page';
import { PasswordField } from '../../../lib/ui/password-field';
import { RouterLink } from '../../../lib/ui/router-link';
import { inputTestId } from '../../../lib/ui/test-ids';
import { isValidReferral } from './referral-search';
import { EMPTY_SIGN_UP, validateSignUp, type SignUpField, type SignUpValues } from './sign-up-form';
import { TermsDialog } from './terms-dialog';

const routeApi = getRouteApi('/sign-up');

export function SignUpPage() {
  const { t, tIsolated, lang, issueMessage, errorMessage } = useT();
  const { ref } = routeApi.useSearch();
  const referralToken = useReferralStore((state) => state.referralToken);
  const setReferralToken = useReferralStore((state) => state.setReferralToken);
  const clearReferral = useReferralStore((state) => state.clear);
  const refIsValid = isValidReferral(ref);

  // A valid code from the link is remembered, so it still applies if the visitor wanders off and comes back later.
  useEffect(() => {
    if (refIsValid) setReferralToken(ref);
  }, [ref, refIsValid, setReferralToken]);

  const [values, setValues] = useState<SignUpValues>(EMPTY_SIGN_UP);
  const [errors, setErrors] = useState<Partial<Record<SignUpField, string>>>({});
  const [termsOpen, setTermsOpen] = useState(false);

  const signUp = useMutation({
    mutationFn: authApi.signUp,
    onSuccess: () => clearReferral(),
    onError: (error) => setErrors(fieldErrorsOf(error, lang)),
  });

  const update = <K extends SignUpField>(field: K, value: SignUpValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const issues = validateSignUp(values);
    const messages: Partial<Record<SignUpField, string>> = {};
    for (const [field, issue] of Object.entries(issues)) messages[field as SignUpField] = issueMessage(issue);
    setErrors(messages);
    if (Object.keys(issues).length > 0) return;
    signUp.mutate({
      email: values.email.trim(),
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      password: values.password,
      termsAccepted: true,
      language: lang,
      ...(referralToken ? { referralToken } : {}),
    });
  };

  if (signUp.isSuccess) {
    return (
      <AuthCard title={t('signUp.done.title')}>
        <Alert severity="success" data-testid="sign-up-done">
          {tIsolated('signUp.done.body', { email: values.email.trim() })}
        </Alert>
        <RouterLink to="/login">{t('common.toLogin')}</RouterLink>
      </AuthCard>
    );
  }

  const field = (
    name: Exclude<SignUpField, 'termsAccepted' | 'password' | 'confirmPassword'>,
    label: string,
    testId: string,
  ) => (
    <TextField
      label={label}
      name={name}
      value={values[name]}
      onChange={(event) => update(name, event.target.value)}
      error={Boolean(errors[name])}
      helperText={errors[name]}
      required
      fullWidth
      autoComplete={name === 'email' ? 'email' : name === 'firstName' ? 'given-name' : 'family-name'}
      type={name === 'email' ? 'email' : 'text'}
      slotProps={{ htmlInput: { ...inputTestId(testId), ...(name === 'email' ? { dir: 'ltr' } : {}) } }}
    />
  );

  return (
    <AuthCard title={t('signUp.title')}>
      {ref !== undefined && !refIsValid && (
        <Alert severity="warning" data-testid="referral-invalid">
          {errorMessage('error.validation.ref.numeric')}
        </Alert>
      )}
      {referralToken && (
        <Alert severity="info" data-testid="referral-applied">
          {tIsolated('signUp.referral', { code: referralToken })}
        </Alert>
      )}
      <Stack
        component="form"
        spacing={2}
        noValidate
        onSubmit={submit}
        aria-label={t('signUp.title')}
        data-testid="sign-up-form"
      >
        {field('email', t('form.email'), 'sign-up-email')}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {field('firstName', t('form.firstName'), 'sign-up-first-name')}
          {field('lastName', t('form.lastName'), 'sign-up-last-name')}
        </Stack>
        <PasswordField
          label={t('form.password')}
          name="password"
          value={values.password}
          onChange={(event) => update('password', event.target.value)}
          error={Boolean(errors.password)}
          helperText={errors.password}
          required
          fullWidth
          autoComplete="new-password"
          slotProps={{ htmlInput: inputTestId('sign-up-password') }}
        />
        <PasswordField
          label={t('form.confirmPassword')}
          name="confirmPassword"
          value={values.confirmPassword}
          onChange={(event) => update('confirmPassword', event.target.value)}
          error={Boolean(errors.confirmPassword)}
          helperText={errors.confirmPassword}
          required
          fullWidth
          autoComplete="new-password"
          slotProps={{ htmlInput: inputTestId('sign-up-confirm-password') }}
        />
        <FormControl error={Boolean(errors.termsAccepted)}>
          <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <FormControlLabel
              sx={{ marginInlineEnd: 0.5 }}
              control={
                <Checkbox
                  checked={values.termsAccepted}
                  onChange={(event) => update('termsAccepted', event.target.checked)}
                  slotProps={{ input: inputTestId('sign-up-terms') }}
                />
              }
              label={t('signUp.terms.accept')}
            />
            <Link component="button" type="button" onClick={() => setTermsOpen(true)} data-testid="terms-open">
              {t('signUp.terms.link')}
            </Link>
          </Stack>
          {errors.termsAccepted && <FormHelperText>{errors.termsAccepted}</FormHelperText>}
        </FormControl>
        <Button type="submit" variant="contained" size="large" disabled={signUp.isPending} data-testid="sign-up-submit">
          {signUp.isPending ? t('form.sending') : t('signUp.submit')}
        </Button>
      </Stack>
      <Typography variant="body2">
        {t('signUp.haveAccount')} <RouterLink to="/login">{t('signUp.toLogin')}</RouterLink>
      </Typography>
      <TermsDialog
        open={termsOpen}
        onClose={() => setTermsOpen(false)}
        onAgree={() => {
          update('termsAccepted', true);
          setTermsOpen(false);
        }}
      />
    </AuthCard>
  );
}
