import { Body, Controller, Delete, Get, HttpCode, Param, type PipeTransform, Post, Put, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { checkSubscriptionLogin } from '@kupa/proto';
import type { Request } from 'express';
import { setTimeout as sleep } from 'node:timers/promises';
import { Clock } from '../../../../../platform/clock';
import { Public } from '../../../../../platform/auth';
import { ApiError, ApiErrorBodyDto, ApiErrors, ValidationFailedError } from '../../../../../platform/http';
import type { StreamingAccount } from '../provisioning-provider.port';
import {
  ChangeStreamingLoginDto,
  ChangeStreamingPasswordDto,
  CreateStreamingAccountDto,
  SandboxFaultDto,
  type SandboxFaultOperation,
  SandboxFaultQueueDto,
  SetStreamingExpiryDto,
  StreamingAccountDto,
} from './sandbox-streaming.dto';
import { admitSandboxCaller, SandboxStreamingSettings } from './sandbox-door';
import { SandboxStreamingStore } from './sandbox-streaming.store';

/**
 * A path login must follow the login rule in its one spelling: anything else is a malformed request (400), refused
 * before the token is looked at, and never reaches the database.
 */
const LoginParamPipe: PipeTransform<string, string> = {
  transform: (value: string) => {
    const issue = checkSubscriptionLogin(value);
    if (issue) throw new ValidationFailedError([{ field: 'login', error: issue.error, params: issue.params }]);
    return value;
  },
};

const LOGIN_PARAM = ApiParam({
  name: 'login',
  schema: { type: 'string', pattern: '^[a-z0-9._-]{6,64}$' },
  description: "The account's login, in the subscription login's one spelling (anything else is 400)",
});
const UNAVAILABLE = ApiResponse({
  status: 503,
  description: 'A queued transient or timeout fault',
  type: ApiErrorBodyDto,
});

/**
 * The built-in streaming-service simulator: the provisioning API of docs/provisioning-api.md, served by Kupa itself
 * under `/api/sandbox/streaming` while no `PROVISIONING_URL` is set, so that the HTTP adapter's code path runs in
 * every installation. Callers present the provisioning token, not a Kupa session. Queued faults
 * (`PUT /api/sandbox/streaming/faults`, only with `PROVISIONING_SIMULATOR_FAULTS=1`) fire before an operation runs.
 */
@ApiTags('sandbox')
@ApiBearerAuth()
@Public()
@Controller('sandbox/streaming')
export class SandboxStreamingController {
  constructor(
    private readonly store: SandboxStreamingStore,
    private readonly settings: SandboxStreamingSettings,
    private readonly clock: Clock,
  ) {}

  /** 200 for a new account and for the same login, password and expiry again: a repeated creation is no conflict. */
  @Post('v1/accounts')
  @HttpCode(200)
  @ApiOkResponse({ type: StreamingAccountDto, description: 'Created now, or already there with the same terms' })
  @ApiErrors(400, 401, 403, 404, 409)
  @UNAVAILABLE
  async create(@Body() request: CreateStreamingAccountDto, @Req() http: Request): Promise<StreamingAccount> {
    admitSandboxCaller(this.settings, http);
    await this.fault('create');
    const result = await this.store.create(
      request.login,
      request.password,
      new Date(request.expiresAt),
      this.clock.now(),
    );
    if (result.result === 'taken') throw new ApiError('error.directory.login.already.exists');
    return result.account;
  }

  @Get('v1/accounts/:login')
  @LOGIN_PARAM
  @ApiOkResponse({ type: StreamingAccountDto })
  @ApiErrors(400, 401, 403, 404)
  @UNAVAILABLE
  async lookup(@Param('login', LoginParamPipe) login: string, @Req() http: Request): Promise<StreamingAccount> {
    admitSandboxCaller(this.settings, http);
    await this.fault('lookup');
    return this.found(await this.store.find(login));
  }

  /** Sets the absolute expiry (and makes a disabled account ACTIVE again); the same call twice changes nothing. */
  @Put('v1/accounts/:login/expiry')
  @LOGIN_PARAM
  @ApiOkResponse({ type: StreamingAccountDto })
  @ApiErrors(400, 401, 403, 404)
  @UNAVAILABLE
  async extend(
    @Param('login', LoginParamPipe) login: string,
    @Body() request: SetStreamingExpiryDto,
    @Req() http: Request,
  ): Promise<StreamingAccount> {
    admitSandboxCaller(this.settings, http);
    await this.fault('extend');
    return this.found(await this.store.setExpiry(login, new Date(request.expiresAt), this.clock.now()));
  }

  @Put('v1/accounts/:login/login')
  @LOGIN_PARAM
  @ApiOkResponse({ type: StreamingAccountDto })
  @ApiErrors(400, 401, 403, 404, 409)
  @UNAVAILABLE
  async changeLogin(
    @Param('login', LoginParamPipe) login: string,
    @Body() request: ChangeStreamingLoginDto,
    @Req() http: Request,
  ): Promise<StreamingAccount> {
    admitSandboxCaller(this.settings, http);
    await this.fault('changeLogin');
    const result = await this.store.rename(login, request.login, this.clock.now());
    if (result.result === 'taken') throw new ApiError('error.directory.login.already.exists');
    return this.found(result.result === 'renamed' ? result.account : null);
  }

  @Put('v1/accounts/:login/password')
  @LOGIN_PARAM
  @ApiOkResponse({ type: StreamingAccountDto })
  @ApiErrors(400, 401, 403, 404)
  @UNAVAILABLE
  async changePassword(
    @Param('login', LoginParamPipe) login: string,
    @Body() request: ChangeStreamingPasswordDto,
    @Req() http: Request,
  ): Promise<StreamingAccount> {
    admitSandboxCaller(this.settings, http);
    await this.fault('changePassword');
    return this.found(await this.store.setPassword(login, request.password, this.clock.now()));
  }

  @Post('v1/accounts/:login/disable')
  @HttpCode(200)
  @LOGIN_PARAM
  @ApiOkResponse({ type: StreamingAccountDto })
  @ApiErrors(400, 401, 403, 404)
  @UNAVAILABLE
  async disable(@Param('login', LoginParamPipe) login: string, @Req() http: Request): Promise<StreamingAccount> {
    admitSandboxCaller(this.settings, http);
    await this.fault('disable');
    return this.found(await this.store.disable(login, this.clock.now()));
  }

  /** Queues a fault behind those already queued; answers the whole queue. */
  @Put('faults')
  @ApiOkResponse({ type: SandboxFaultQueueDto })
  @ApiErrors(400, 401, 403, 404)
  async queueFault(@Body() request: SandboxFaultDto, @Req() http: Request): Promise<SandboxFaultQueueDto> {
    admitSandboxCaller(this.settings, http, 'fault');
    await this.store.queueFault(request.operation, request.mode, request.times);
    return { faults: await this.store.faults() };
  }

  @Delete('faults')
  @ApiNoContentResponse({ description: 'No fault is queued any more' })
  @HttpCode(204)
  @ApiErrors(400, 401, 403, 404)
  async clearFaults(@Req() http: Request): Promise<void> {
    admitSandboxCaller(this.settings, http, 'fault');
    await this.store.clearFaults();
  }

  private found(account: StreamingAccount | null): StreamingAccount {
    if (account === null) throw new ApiError('error.directory.login.not.found');
    return account;
  }

  /** Fires the oldest fault queued for the operation, if faults are on and one waits. */
  private async fault(operation: SandboxFaultOperation): Promise<void> {
    if (!this.settings.faultsEnabled) return;
    const mode = await this.store.takeFault(operation);
    if (mode === null) return;
    if (mode === 'timeout') await sleep(this.settings.timeoutHoldMs);
    if (mode === 'transient' || mode === 'timeout')
      throw new ApiError('error.streaming.integration.failure', undefined, 503);
    if (mode === 'permanent') throw new ApiError('error.bad.request');
    throw new ApiError('error.directory.login.already.exists');
  }
}
