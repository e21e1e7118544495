import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { DepositClaim } from '@kupa/proto';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { fullNameOf, UserReader } from '../../../identity';
import { DepositClaimDto } from '../../infrastructure/ledger.responses';
import { DepositClaimsReader } from '../../projections/deposit-claims/deposit-claims.reader';
import { ListDepositClaimsRequestDto } from './list-deposit-claims.request.dto';

@ApiTags('deposit-claims')
@ApiBearerAuth()
@Controller('deposit-claims')
export class ListDepositClaimsController {
  constructor(
    private readonly claims: DepositClaimsReader,
    private readonly users: UserReader,
  ) {}

  /**
   * A client's own claims, newest first; for staff every client's, open first (oldest waiting first), each with the
   * client's name, filtered by `status` when given. At most 100.
   */
  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ type: DepositClaimDto, isArray: true })
  @ApiErrors(400, 401, 403)
  @Roles('CLIENT', 'AMBASSADOR', 'ADMIN', 'MANAGER')
  async list(@CurrentActor() actor: Actor, @Query() { status }: ListDepositClaimsRequestDto): Promise<DepositClaim[]> {
    if (actor.role === 'CLIENT' || actor.role === 'AMBASSADOR') {
      const own = await this.claims.ofClient(actor.userUuid);
      return status === undefined ? own : own.filter((claim) => claim.status === status);
    }
    const claims = await this.claims.forStaff(status ?? null);
    const owners = await this.users.findByUuids([...new Set(claims.map((claim) => claim.userUuid))]);
    const nameOf = new Map(owners.map((user) => [user.uuid, fullNameOf(user)]));
    return claims.map((claim) => ({ ...claim, clientName: nameOf.get(claim.userUuid) ?? '' }));
  }
}
