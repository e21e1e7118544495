import { Query } from '@nestjs/cqrs';
import type { Page, User } from '@kupa/proto';
import type { SearchStaffRequestDto } from './search-staff.request.dto';

export class SearchStaffQuery extends Query<Page<User>> {
  constructor(readonly request: SearchStaffRequestDto) {
    super();
  }
}
