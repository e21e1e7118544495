import { SimpleList } from 'react-admin';
import { CardLine } from '../shared/card-line';
import { DateTimeField } from '../shared/date-time-field';
import { Ltr } from '../shared/ltr';
import { MoneyField } from '../shared/money';
import {
  PlanNameField,
  type SubscriptionRecord,
  SubscriptionPeriodField,
  SubscriptionStateField,
} from './subscription-fields';

/**
 * Subscriptions on a phone, one card each (the subscriptions list and a client's tab): the package and the status
 * first, then price, duration, login and end date, and whose it is when the list holds everyone's.
 */
export function SubscriptionCards({ withUser }: { withUser: boolean }) {
  return (
    <SimpleList<SubscriptionRecord>
      linkType="show"
      primaryText={
        <CardLine testId="subscriptions-card" end={<SubscriptionStateField />}>
          <PlanNameField />
        </CardLine>
      }
      secondaryText={(record) => (
        <>
          <MoneyField source="price" /> · <SubscriptionPeriodField /> · <Ltr>{record.login}</Ltr>
          {record.endDate ? (
            <>
              {' '}
              · <DateTimeField source="endDate" />
            </>
          ) : null}
          {withUser ? (
            <>
              <br />
              <Ltr>{record.userEmail}</Ltr>
            </>
          ) : null}
        </>
      )}
    />
  );
}
