import { Card, CardContent } from '@mui/material';
import { Title, useGetResourceLabel, useResourceContext, useTranslate } from 'react-admin';
import { EmptyState } from './empty-state';

/**
 * The list page of a resource whose API does not exist yet. It renders an empty state without calling the data
 * provider, so no request goes to an endpoint the server does not have.
 */
export function PlaceholderList() {
  const resource = useResourceContext() ?? '';
  const translate = useTranslate();
  const getResourceLabel = useGetResourceLabel();
  const name = getResourceLabel(resource, 2);
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={name} />
      <CardContent>
        <EmptyState
          testId={`${resource}-empty`}
          title={translate('kupa.empty.title')}
          message={translate('kupa.empty.message', { name })}
        />
      </CardContent>
    </Card>
  );
}
