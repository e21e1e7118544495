import {
  BadRequestException,
  Body,
  Controller,
  HttpCode,
  Injectable,
  Module,
  NotFoundException,
  Post,
  Req,
  UnprocessableEntityException,
  UseGuards,
} from '@nestjs/common';
import { AuthGuard, PassportModule, PassportStrategy } from '@nestjs/passport';
import { InjectDataSource, InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { IsEmail, IsInt, IsOptional, IsPositive, Max } from 'class-validator';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { type DataSource, In, type Repository } from 'typeorm';
import { Account, Entry, PEER_ENTITIES, Transfer } from './entities.js';

/** The bench's conventional peer (docs/benchmarks.md, "The peer"): one route, one transaction, no event store. */

export class TransferRequest {
  @IsOptional()
  @IsEmail()
  toEmail?: string;

  @IsOptional()
  @IsInt()
  @IsPositive()
  toAccountId?: number;

  @IsInt()
  @IsPositive()
  @Max(1_000_000_000)
  amountMinor!: number;
}

interface SignedInUser {
  userId: number;
}

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy) {
  constructor() {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      ignoreExpiration: false,
      secretOrKey: process.env.PEER_JWT_SECRET ?? '',
      algorithms: ['HS256'],
    });
  }

  /** The documented NestJS pattern: the signed claims are trusted as they are, no database read per request. */
  validate(payload: { sub: number }): SignedInUser {
    return { userId: payload.sub };
  }
}

@Injectable()
export class TransfersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
  ) {}

  async transfer(userId: number, request: TransferRequest): Promise<{ transferId: string; balanceMinor: number }> {
    if ((request.toEmail === undefined) === (request.toAccountId === undefined))
      throw new BadRequestException('give exactly one of toEmail and toAccountId');
    const from = await this.accounts.findOne({ where: { ownerId: userId } });
    if (!from) throw new NotFoundException('no account');
    const to = await this.accounts.findOne({
      where: request.toEmail !== undefined ? { owner: { email: request.toEmail } } : { id: request.toAccountId },
    });
    if (!to) throw new NotFoundException('recipient not found');
    if (to.id === from.id) throw new BadRequestException('cannot transfer to the same account');
    const amountMinor = request.amountMinor;
    return this.dataSource.transaction(async (manager) => {
      // Both rows locked in id order, so two opposite transfers cannot deadlock.
      const locked = await manager
        .createQueryBuilder(Account, 'account')
        .setLock('pessimistic_write')
        .where({ id: In([from.id, to.id]) })
        .orderBy('account.id', 'ASC')
        .getMany();
      const payer = locked.find((account) => account.id === from.id);
      const payee = locked.find((account) => account.id === to.id);
      if (!payer || !payee) throw new NotFoundException('account not found');
      if (payer.balanceMinor < amountMinor) throw new UnprocessableEntityException('insufficient funds');
      await manager.update(Account, payer.id, { balanceMinor: payer.balanceMinor - amountMinor });
      await manager.update(Account, payee.id, { balanceMinor: payee.balanceMinor + amountMinor });
      const inserted = await manager.insert(Transfer, { fromAccountId: payer.id, toAccountId: payee.id, amountMinor });
      const transferId = String(inserted.identifiers[0].id);
      await manager.insert(Entry, [
        { transferId, accountId: payer.id, amountMinor: -amountMinor },
        { transferId, accountId: payee.id, amountMinor },
      ]);
      return { transferId, balanceMinor: payer.balanceMinor - amountMinor };
    });
  }
}

@Controller()
export class TransfersController {
  constructor(private readonly transfers: TransfersService) {}

  @Post('transfers')
  @HttpCode(201)
  @UseGuards(AuthGuard('jwt'))
  transfer(@Req() request: { user: SignedInUser }, @Body() body: TransferRequest) {
    return this.transfers.transfer(request.user.userId, body);
  }
}

/** The same pool size per process as the API's (DATABASE_POOL_SIZE in services/api/src/app.module.ts). */
export const PEER_POOL_SIZE = 20;
/** An idle connection closes after this long (the bench's `PEER_IDLE_CLOSE_MS`): see `PeerLedger.idle()`. */
const IDLE_CLOSE_MS = Number(process.env.PEER_IDLE_CLOSE_MS ?? 10_000);

@Module({
  imports: [
    TypeOrmModule.forRoot({
      type: 'postgres',
      url: process.env.PEER_DATABASE_URL,
      entities: PEER_ENTITIES,
      // The primary synchronised the schema before forking (main.ts); the API processes only use it.
      synchronize: false,
      logging: false,
      extra: { max: PEER_POOL_SIZE, idleTimeoutMillis: IDLE_CLOSE_MS },
    }),
    TypeOrmModule.forFeature([Account]),
    PassportModule,
  ],
  controllers: [TransfersController],
  providers: [TransfersService, JwtStrategy],
})
export class PeerModule {}
