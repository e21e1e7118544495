import { useId } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import CheckIcon from '@mui/icons-material/Check';
import EventOutlinedIcon from '@mui/icons-material/EventOutlined';
import { clientEnumLabel, type Plan, planTextIn } from '@kupa/proto';
import { useT } from '../../lib/i18n/i18n';
import { PlanPrice, type PlanPricing } from '../../lib/plans/plan-price';
import { ReadOnlyAction } from '../../lib/view-as/read-only-action';

/** One package on sale: what it is, what it costs this client, what it includes, and the way to buy it. */
export function PlanCard({ plan, pricing, onBuy }: { plan: Plan; pricing: PlanPricing; onBuy: () => void }) {
  const { t, lang } = useT();
  const nameId = useId();
  const text = planTextIn(plan, lang);
  return (
    <Card
      variant="outlined"
      component="article"
      aria-labelledby={nameId}
      data-testid="plan-card"
      data-plan-id={plan.id}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flexGrow: 1 }}>
        <Stack spacing={1.5}>
          <Typography id={nameId} variant="h6" component="h2" dir="auto" data-testid="plan-name">
            {text.name}
          </Typography>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Chip
              size="small"
              icon={<EventOutlinedIcon />}
              label={clientEnumLabel('planDuration', plan.durationInMonths, lang)}
              data-testid="plan-duration"
            />
            <Chip
              size="small"
              variant="outlined"
              icon={plan.isRecurrent ? <AutorenewIcon /> : undefined}
              label={plan.isRecurrent ? t('packages.recurrent') : t('packages.oneOff')}
              data-testid="plan-recurrence"
            />
          </Stack>
          <PlanPrice pricing={pricing} months={plan.durationInMonths} testId="plan-price" />
          {plan.isRecurrent && (
            <Typography variant="body2" color="text.secondary">
              {t('packages.recurrentHint')}
            </Typography>
          )}
          {text.description && (
            <Typography color="text.secondary" dir="auto" data-testid="plan-description">
              {text.description}
            </Typography>
          )}
          {plan.features.length > 0 && (
            <Box
              component="ul"
              aria-label={t('packages.features')}
              sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 0.75 }}
            >
              {plan.features.map((feature, index) => (
                <Box component="li" key={index} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
                  <CheckIcon fontSize="small" color="success" aria-hidden sx={{ mt: '2px' }} />
                  <Typography component="span" dir="auto">
                    {feature}
                  </Typography>
                </Box>
              ))}
            </Box>
          )}
        </Stack>
      </CardContent>
      <CardActions sx={{ p: 2, pt: 0 }}>
        <ReadOnlyAction fullWidth>
          <Button variant="contained" fullWidth onClick={onBuy} data-testid="plan-buy">
            {t('packages.buy')}
          </Button>
        </ReadOnlyAction>
      </CardActions>
    </Card>
  );
}
