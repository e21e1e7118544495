export { type Actor, ActorLookup, type ActorRecord, eventMetadata, type RequestContext, systemContext } from './actor';
export { AUTH_OPTIONS, type AuthOptions } from './auth-options';
export { CurrentActor, Public, ReqContext, requestContextOf, Roles } from './decorators';
export { JwtAuthGuard, OptionalJwtAuthGuard, RolesGuard } from './guards';
export { type AccessTokenPayload, actorOfAccessToken, JwtStrategy } from './jwt.strategy';
export { PlatformAuthModule } from './auth.module';
