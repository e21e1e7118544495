import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { AUTH_OPTIONS, type AuthOptions } from './auth-options';
import { JwtAuthGuard, RolesGuard, ViewAsReadOnlyGuard } from './guards';
import { JwtStrategy } from './jwt.strategy';

/** The JWT guard and role guard for every route, and the JwtService identity signs access tokens with. */
@Global()
@Module({})
export class PlatformAuthModule {
  static register(options: AuthOptions): DynamicModule {
    return {
      module: PlatformAuthModule,
      imports: [
        PassportModule,
        JwtModule.register({
          secret: options.jwtSecret,
          signOptions: { expiresIn: options.accessTokenTtlSeconds, algorithm: 'HS256' },
        }),
      ],
      providers: [
        { provide: AUTH_OPTIONS, useValue: options },
        JwtStrategy,
        { provide: APP_GUARD, useClass: JwtAuthGuard },
        { provide: APP_GUARD, useClass: ViewAsReadOnlyGuard },
        { provide: APP_GUARD, useClass: RolesGuard },
      ],
      exports: [JwtModule, AUTH_OPTIONS, JwtStrategy],
    };
  }
}
