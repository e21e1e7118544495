import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Subscription } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { AcceptsIdempotencyKey, IdempotencyKeyHeader, parseIdempotencyKey } from '../../../../platform/idempotency';
import { SubscriptionIdPipe } from '../../infrastructure/params';
import { SubscriptionDto } from '../../infrastructure/subscriptions.responses';
import { ExtendSubscriptionCommand } from './extend-subscription.command';
import { ExtendSubscriptionRequestDto } from './extend-subscription.request.dto';

@ApiTags('subscriptions')
@ApiBearerAuth()
@Controller('subscriptions')
export class ExtendSubscriptionController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Adds 1 to 366 days to a subscription without a payment, with a reason its owner is shown (ADR 0089). Admins only:
   * days are value given away. ACTIVE, UNSUBSCRIBED or cancelled ones get the days after their end date; one in GRACE
   * gets them from now and is ACTIVE again. 409 `error.subscription.not.extendable` (PENDING),
   * `error.subscription.ended`. A repeat with the same `Idempotency-Key` adds nothing.
   */
  @Post(':id/extension')
  @HttpCode(200)
  @ApiUuidParam('id')
  @ApiOkResponse({ type: SubscriptionDto, description: 'The subscription with its new end date' })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles('ADMIN')
  @AcceptsIdempotencyKey()
  extend(
    @CurrentActor() actor: Actor,
    @Param('id', SubscriptionIdPipe) subscriptionId: string,
    @Body() request: ExtendSubscriptionRequestDto,
    @IdempotencyKeyHeader() idempotencyKeyHeader: string | undefined,
    @ReqContext() context: RequestContext,
  ): Promise<Subscription> {
    // Without a key each request is its own extension; with one, a repeated click adds the days once.
    const key = parseIdempotencyKey(idempotencyKeyHeader);
    const idempotencyKey = key === null ? `staff:${randomUUID()}` : `staff:${actor.userUuid}:${key}`;
    return this.commands.execute(
      new ExtendSubscriptionCommand(actor, subscriptionId, request.days, request.reason, idempotencyKey, context),
    );
  }
}
