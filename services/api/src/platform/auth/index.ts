export {
  type Actor,
  ActorLookup,
  type ActorRecord,
  eventMetadata,
  type RequestContext,
  systemContext,
  ViewAsRecorder,
} from './actor';
export { AUTH_OPTIONS, type AuthOptions } from './auth-options';
export { CurrentActor, IS_READ, Public, ReadOnlyRoute, ReqContext, requestContextOf, Roles } from './decorators';
export { JwtAuthGuard, OptionalJwtAuthGuard, RolesGuard, ViewAsReadOnlyGuard, viewAsMayCall } from './guards';
export { type AccessTokenPayload, actorOfAccessToken, JwtStrategy, viewAsActorOf } from './jwt.strategy';
export { PlatformAuthModule } from './auth.module';
