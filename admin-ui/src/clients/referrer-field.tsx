import { type User } from '@kupa/proto';
import { type MouseEvent } from 'react';
import { Link, useCreatePath, useRecordContext, useTranslate } from 'react-admin';
import { Ltr } from '../shared/ltr';

/**
 * Who referred the client (ADR 0078): a link to the referrer's detail, by name or else e-mail, or "—" when nobody
 * did. In a list row the link opens the referrer, not the row's own client.
 */
export function ReferrerField(_props: { source?: string; label?: string; sortable?: boolean }) {
  const record = useRecordContext<User>();
  const createPath = useCreatePath();
  const translate = useTranslate();
  if (!record) return null;
  const referrer = record.referrer;
  if (!referrer) return <span data-testid="client-referrer-none">{translate('kupa.clients.no_referrer')}</span>;
  return (
    <Link
      to={createPath({ resource: 'clients', id: referrer.userUuid, type: 'show' })}
      onClick={(event: MouseEvent) => event.stopPropagation()}
      data-testid="client-referrer-link"
      title={referrer.email}
    >
      {referrer.fullName ? <bdi dir="auto">{referrer.fullName}</bdi> : <Ltr>{referrer.email}</Ltr>}
    </Link>
  );
}
