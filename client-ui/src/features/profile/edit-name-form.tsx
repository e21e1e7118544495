import { type FormEvent, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { checkPersonName, checkRequired, firstIssue, type User } from '@kupa/proto';
import { fieldErrorsOf } from '../../lib/api/api-error';
import { usersApi } from '../../lib/api/endpoints';
import { ME_QUERY_KEY } from '../../lib/api/use-me';
import { useT } from '../../lib/i18n/i18n';
import { showToast } from '../../lib/toast/toast-store';
import { inputTestId } from '../../lib/ui/test-ids';
import { ReadOnlyAction } from '../../lib/view-as/read-only-action';

/** Edits the user's first and last name (`PUT /users/{uuid}`). */
export function EditNameForm({ user }: { user: User }) {
  const { t, lang, issueMessage } = useT();
  const queryClient = useQueryClient();
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const [errors, setErrors] = useState<{ firstName?: string; lastName?: string }>({});
  const save = useMutation({
    mutationFn: () => usersApi.updateName(user.userUuid, { firstName: firstName.trim(), lastName: lastName.trim() }),
    onSuccess: () => {
      showToast({ severity: 'success', title: t('toast.successTitle'), message: t('profile.nameSaved') });
      return queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    },
    onError: (error) => setErrors(fieldErrorsOf(error, lang)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      firstName: issueMessage(firstIssue(firstName, checkRequired, checkPersonName)),
      lastName: issueMessage(firstIssue(lastName, checkRequired, checkPersonName)),
    };
    setErrors(next);
    if (!next.firstName && !next.lastName) save.mutate();
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="edit-name-title" sx={{ p: 3 }}>
      <Typography id="edit-name-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('profile.editName')}
      </Typography>
      <Stack component="form" spacing={2} noValidate onSubmit={submit} aria-labelledby="edit-name-title">
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            label={t('form.firstName')}
            value={firstName}
            onChange={(event) => setFirstName(event.target.value)}
            error={Boolean(errors.firstName)}
            helperText={errors.firstName}
            autoComplete="given-name"
            required
            fullWidth
            slotProps={{ htmlInput: inputTestId('profile-first-name') }}
          />
          <TextField
            label={t('form.lastName')}
            value={lastName}
            onChange={(event) => setLastName(event.target.value)}
            error={Boolean(errors.lastName)}
            helperText={errors.lastName}
            autoComplete="family-name"
            required
            fullWidth
            slotProps={{ htmlInput: inputTestId('profile-last-name') }}
          />
        </Stack>
        <div>
          <ReadOnlyAction>
            <Button type="submit" variant="contained" disabled={save.isPending} data-testid="profile-name-submit">
              {save.isPending ? t('form.sending') : t('common.save')}
            </Button>
          </ReadOnlyAction>
        </div>
      </Stack>
    </Paper>
  );
}
