import { LIMITS } from '@kupa/proto';
import { Pagination } from 'react-admin';

/** Page sizes every list offers: the API's default first, up to its maximum. */
export const LIST_PAGE_SIZES = [LIMITS.pageSizeDefault, 50, LIMITS.pageSizeMax];

/** react-admin's pagination with our page sizes (its own choices, 5/10/25/50, do not hold the default of 20). */
export function ListPagination() {
  return <Pagination rowsPerPageOptions={LIST_PAGE_SIZES} />;
}
