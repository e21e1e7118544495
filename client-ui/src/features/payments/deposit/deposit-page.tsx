import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useSearch } from '@tanstack/react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SendIcon from '@mui/icons-material/Send';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CURRENCIES, clientEnumLabel, minorToAmount, randomUuid, type Currency } from '@kupa/proto';
import { isApiError } from '../../../lib/api/api-error';
import { depositClaimsApi } from '../../../lib/api/endpoints';
import { notifyError } from '../../../lib/api/query-client';
import { showToast } from '../../../lib/toast/toast-store';
import { DEPOSIT_CLAIMS_QUERY_KEY, ManualClaims } from './manual-claims';
import { useMe } from '../../../lib/api/use-me';
import {
  useCardTopUpAvailable,
  useCryptoDepositAvailable,
  useSupportContacts,
} from '../../../lib/api/use-support-contacts';
import { formatDollars } from '../../../lib/format';
import { useT, type MessageKey } from '../../../lib/i18n/i18n';
import { richText } from '../../../lib/i18n/rich-text';
import { Page } from '../../../lib/ui/page';
import { inputTestId } from '../../../lib/ui/test-ids';
import { parseAmountInput } from '../amount-input';
import { DollarAmountField } from '../dollar-amount-field';
import { AmbassadorBonusPreview } from './bonus-preview';
import { CardDeposit } from './card-deposit';
import { CryptoDeposit } from './crypto-deposit';
import { amountInputOf, type DepositSearch, parseDepositSearch } from './deposit-search';
import { ReadOnlyAction } from '../../../lib/view-as/read-only-action';

type DepositMethod = 'manual' | 'crypto' | 'card';

const METHODS: readonly { value: DepositMethod; label: MessageKey }[] = [
  { value: 'manual', label: 'deposit.method.manual' },
  { value: 'crypto', label: 'deposit.method.crypto' },
  { value: 'card', label: 'deposit.method.card' },
];

/**
 * Where the top-up page starts: coming back from the cashier's invoice page (`?paymentId=`) on that crypto deposit; with
 * an amount (the reminders' link) on a method that pays at once, crypto, else the card; otherwise on a transfer by hand.
 */
function startingMethod(search: DepositSearch, cryptoAvailable: boolean, cardAvailable: boolean): DepositMethod {
  if (search.paymentId !== undefined) return 'crypto';
  if (search.amountMinor === undefined) return 'manual';
  return cryptoAvailable ? 'crypto' : cardAvailable ? 'card' : 'manual';
}

/**
 * Tops up the balance: by a manual transfer to the operator (the user's 8-digit profile ID is the reference that
 * matches the money to the account), by crypto through the cashier, or by card through the card provider's checkout
 * (ADR 0082), each offered where the deployment has it. Opened with `?amountMinor=` (the reminders' one-click link)
 * the amount is filled in for whichever method is chosen.
 */
export function DepositPage() {
  const { t, tIsolated, lang, issueMessage, apiErrorMessage } = useT();
  const { data: me } = useMe();
  // A card top-up needs a card provider and the operator's switch (CARD_BALANCE_PAYMENTS): without both the card is
  // not offered at all.
  const cardAvailable = useCardTopUpAvailable();
  // Crypto needs a cashier: a real deployment without one says so rather than offering a form that cannot work.
  const cryptoAvailable = useCryptoDepositAvailable();
  const isAvailable = (option: DepositMethod): boolean => (option === 'crypto' ? cryptoAvailable : true);
  const methods = METHODS.filter((option) => option.value !== 'card' || cardAvailable);
  // Read through the route's own parser: a loose read of the search holds the raw text, not what the route kept.
  const search: DepositSearch = parseDepositSearch(useSearch({ strict: false }));
  // One amount for every method: switching from a manual transfer to crypto (or back) keeps what was typed, and the
  // reminders' link (`?amountMinor=`) fills it in.
  const [amount, setAmount] = useState(() =>
    search.amountMinor === undefined ? '' : amountInputOf(search.amountMinor),
  );
  const [amountError, setAmountError] = useState<string>();
  const [currency] = useState<Currency>('USD');
  const [method, setMethod] = useState<DepositMethod>(() => startingMethod(search, cryptoAvailable, cardAvailable));
  const { contacts, isPending: dictionariesPending } = useSupportContacts();
  // The dictionaries usually arrive after the first render: the starting method is chosen again, once, by what they
  // say the deployment has.
  const started = useRef(!dictionariesPending);
  useEffect(() => {
    if (started.current || dictionariesPending) return;
    started.current = true;
    setMethod(startingMethod(search, cryptoAvailable, cardAvailable));
  }, [dictionariesPending, search, cryptoAvailable, cardAvailable]);
  const supportEmail = contacts.email;

  const parsed = parseAmountInput(amount);
  const amountText = parsed.ok ? formatDollars(minorToAmount(parsed.amountMinor), lang) : null;

  // "I've sent it" records a claim (ADR 0112): staff are alerted and credit the balance once the money is in. One key
  // per press, so a retried request records one claim.
  const queryClient = useQueryClient();
  const claim = useMutation({
    mutationFn: (amountMinor: number) => depositClaimsApi.claim({ amount: minorToAmount(amountMinor) }, randomUuid()),
    onSuccess: async () => {
      showToast({ severity: 'success', title: t('toast.successTitle'), message: t('deposit.claim.sent') });
      await queryClient.invalidateQueries({ queryKey: DEPOSIT_CLAIMS_QUERY_KEY });
    },
    meta: { silentError: true },
    onError: (error) => {
      notifyError(error);
      if (isApiError(error) && error.code === 'error.deposit.amount.out.of.range')
        setAmountError(apiErrorMessage(error.body));
    },
  });
  const claimTransfer = (event: FormEvent) => {
    event.preventDefault();
    if (!parsed.ok) {
      setAmountError(issueMessage(parsed.issue));
      return;
    }
    claim.mutate(parsed.amountMinor);
  };

  const links: Record<string, ReactNode> = {
    telegram: contacts.telegram && (
      <Link key="telegram" href={contacts.telegram} target="_blank" rel="noopener noreferrer">
        {t('help.telegram')}
      </Link>
    ),
    email: supportEmail && (
      <Link key="email" href={`mailto:${supportEmail}`}>
        <bdi>{supportEmail}</bdi>
      </Link>
    ),
  };
  // The sentence names the contacts the deployment has configured, and only those.
  const contactKey: MessageKey =
    contacts.telegram && supportEmail
      ? 'deposit.instructions.contact'
      : contacts.telegram
        ? 'deposit.instructions.contactTelegram'
        : supportEmail
          ? 'deposit.instructions.contactEmail'
          : 'deposit.instructions.contactNone';

  return (
    <Page title={t('deposit.title')}>
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 640 }}>
        <Stack
          component="form"
          spacing={3}
          noValidate
          onSubmit={claimTransfer}
          aria-label={t('deposit.title')}
          data-testid="deposit-form"
        >
          {method === 'manual' && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <DollarAmountField
                label={t('deposit.amount')}
                value={amount}
                onChange={(text) => {
                  setAmount(text);
                  setAmountError(undefined);
                }}
                error={amountError}
                testId="deposit-amount"
              />
              <TextField
                select
                label={t('deposit.currency')}
                value={currency}
                // USD is the only currency; the field shows it rather than offering a choice. It is read-only rather than
                // disabled, so that it and its hint keep the contrast of readable text.
                helperText={t('deposit.currencyFixed')}
                sx={{ minWidth: 200 }}
                slotProps={{ input: { readOnly: true }, htmlInput: inputTestId('deposit-currency') }}
              >
                {CURRENCIES.map((value) => (
                  <MenuItem key={value} value={value}>
                    {value} · {clientEnumLabel('currency', value, lang)}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
          )}
          {method === 'manual' && <AmbassadorBonusPreview amount={amount} />}

          <FormControl>
            <FormLabel id="deposit-method-label">{t('deposit.method')}</FormLabel>
            <RadioGroup
              aria-labelledby="deposit-method-label"
              value={method}
              onChange={(event) => setMethod(event.target.value as DepositMethod)}
            >
              {methods.map((option) => (
                <FormControlLabel
                  key={option.value}
                  value={option.value}
                  disabled={!isAvailable(option.value)}
                  control={<Radio slotProps={{ input: inputTestId(`deposit-method-${option.value}`) }} />}
                  label={
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <span>{t(option.label)}</span>
                      {!isAvailable(option.value) && (
                        <Chip
                          size="small"
                          label={t('deposit.unavailable')}
                          data-testid={`deposit-unavailable-${option.value}`}
                        />
                      )}
                    </Stack>
                  }
                />
              ))}
            </RadioGroup>
          </FormControl>

          {!cryptoAvailable && search.paymentId === undefined && (
            <Alert severity="info" data-testid="deposit-crypto-unavailable">
              {t('deposit.crypto.unavailable')}
            </Alert>
          )}

          {method === 'crypto' && <CryptoDeposit amount={amount} onAmountChange={setAmount} />}

          {method === 'card' && cardAvailable && (
            <CardDeposit amount={amount} onAmountChange={setAmount} limitsKnown={cryptoAvailable} />
          )}

          {method === 'manual' &&
            (!me ? (
              <Skeleton variant="rounded" height={200} />
            ) : (
              <Alert
                severity="info"
                icon={false}
                data-testid="deposit-instructions"
                component="section"
                aria-labelledby="deposit-instructions-title"
              >
                <Typography
                  id="deposit-instructions-title"
                  variant="subtitle1"
                  component="h2"
                  sx={{ fontWeight: 600, mb: 1 }}
                >
                  {t('deposit.instructions.title')}
                </Typography>
                <Box component="ol" sx={{ m: 0, paddingInlineStart: 3, '& li': { mb: 1 } }}>
                  <li>{richText(t(contactKey), links)}</li>
                  <li>
                    {amountText === null
                      ? tIsolated('deposit.instructions.sendAny', { profileId: me.profileId })
                      : tIsolated('deposit.instructions.send', { amount: amountText, profileId: me.profileId })}
                  </li>
                  <li>{t('deposit.instructions.credit')}</li>
                </Box>
                <Typography sx={{ mt: 1.5 }}>
                  {t('deposit.reference')}:{' '}
                  <Box
                    component="bdi"
                    sx={{ fontFamily: 'monospace', fontSize: '1.15em', fontWeight: 700 }}
                    data-testid="deposit-reference"
                  >
                    {me.profileId}
                  </Box>
                </Typography>
              </Alert>
            ))}

          {method === 'manual' && (
            <div>
              <ReadOnlyAction>
                <Button
                  type="submit"
                  variant="contained"
                  startIcon={<SendIcon />}
                  disabled={!me || claim.isPending}
                  data-testid="deposit-notify"
                >
                  {t('deposit.notify')}
                </Button>
              </ReadOnlyAction>
            </div>
          )}
          {method === 'manual' && <ManualClaims />}
        </Stack>
      </Paper>
    </Page>
  );
}
