import { type ComponentType } from 'react';
import {
  DataTableBody,
  type DataTableBodyProps,
  DataTableRow,
  type DataTableRowProps,
  useRecordContext,
} from 'react-admin';

/**
 * A DataTable body whose rows carry `data-testid={testId}` and the record id in `data-id`, so a browser test can
 * find a row by what it shows and click it.
 */
export function bodyWithRowTestId(testId: string): ComponentType<DataTableBodyProps> {
  function Row(props: DataTableRowProps) {
    const record = useRecordContext();
    return <DataTableRow {...props} data-testid={testId} data-id={record?.id} />;
  }
  function Body(props: DataTableBodyProps) {
    return <DataTableBody {...props} row={Row} />;
  }
  Body.displayName = `BodyWithRowTestId(${testId})`;
  return Body;
}
