import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { ActorLookup, ViewAsRecorder } from '../../platform/auth';
import { AuditMapperRegistry, AuditNameRegistry } from '../audit';
import { EventTypeRegistry } from '../../platform/event-store';
import { InlineProjectionRegistry, ProcessorRunner } from '../../platform/projections';
import { Clock } from '../../platform/clock';
import { MailDispatcher } from '../../platform/mail';
import { IdentityMailsProcessor } from './processors/identity-mails/identity-mails.processor';
import { ActivateTwoFactorController } from './commands/activate-two-factor/activate-two-factor.controller';
import { ActivateTwoFactorHandler } from './commands/activate-two-factor/activate-two-factor.handler';
import { DisableTwoFactorController } from './commands/disable-two-factor/disable-two-factor.controller';
import { DisableTwoFactorHandler } from './commands/disable-two-factor/disable-two-factor.handler';
import { ResetTwoFactorController } from './commands/reset-two-factor/reset-two-factor.controller';
import { ResetTwoFactorHandler } from './commands/reset-two-factor/reset-two-factor.handler';
import { StartTwoFactorEnrolmentController } from './commands/start-two-factor-enrolment/start-two-factor-enrolment.controller';
import { StartTwoFactorEnrolmentHandler } from './commands/start-two-factor-enrolment/start-two-factor-enrolment.handler';
import { TwoFactorEnrolmentGuard, TwoFactorEnrolmentTokens } from './infrastructure/two-factor/two-factor-enrolment';
import { TwoFactorSignIn } from './application/two-factor-sign-in';
import { TwoFactorStepUp } from './application/two-factor-step-up';
import { TwoFactorStore } from './infrastructure/two-factor/two-factor-store';
import { AddNoteController } from './commands/add-note/add-note.controller';
import { AddNoteHandler } from './commands/add-note/add-note.handler';
import { ChangeEmailController } from './commands/change-email/change-email.controller';
import { ChangeEmailHandler } from './commands/change-email/change-email.handler';
import { ChangePasswordController } from './commands/change-password/change-password.controller';
import { ChangePasswordHandler } from './commands/change-password/change-password.handler';
import { ChangeUserRoleController } from './commands/change-user-role/change-user-role.controller';
import { ChangeUserRoleHandler } from './commands/change-user-role/change-user-role.handler';
import { ChangeUserStatusController } from './commands/change-user-status/change-user-status.controller';
import { ChangeUserStatusHandler } from './commands/change-user-status/change-user-status.handler';
import { ConfirmEmailChangeController } from './commands/confirm-email-change/confirm-email-change.controller';
import { ConfirmEmailChangeHandler } from './commands/confirm-email-change/confirm-email-change.handler';
import { ConfirmEmailController } from './commands/confirm-email/confirm-email.controller';
import { ConfirmEmailHandler } from './commands/confirm-email/confirm-email.handler';
import { CreateUserController } from './commands/create-user/create-user.controller';
import { CreateUserHandler } from './commands/create-user/create-user.handler';
import { DeleteNoteController } from './commands/delete-note/delete-note.controller';
import { DeleteNoteHandler } from './commands/delete-note/delete-note.handler';
import { ForgotPasswordController } from './commands/forgot-password/forgot-password.controller';
import { ForgotPasswordHandler } from './commands/forgot-password/forgot-password.handler';
import { RefreshSessionController } from './commands/refresh-session/refresh-session.controller';
import { RefreshSessionHandler } from './commands/refresh-session/refresh-session.handler';
import { RejectTrialController } from './commands/reject-trial/reject-trial.controller';
import { RejectTrialHandler } from './commands/reject-trial/reject-trial.handler';
import { ResendConfirmationController } from './commands/resend-confirmation/resend-confirmation.controller';
import { ResendConfirmationHandler } from './commands/resend-confirmation/resend-confirmation.handler';
import { ResetPasswordController } from './commands/reset-password/reset-password.controller';
import { ResetPasswordHandler } from './commands/reset-password/reset-password.handler';
import { SetUserPasswordController } from './commands/set-user-password/set-user-password.controller';
import { SetUserPasswordHandler } from './commands/set-user-password/set-user-password.handler';
import { SignInController } from './commands/sign-in/sign-in.controller';
import { SignInHandler } from './commands/sign-in/sign-in.handler';
import { SignOutController } from './commands/sign-out/sign-out.controller';
import { SignOutHandler } from './commands/sign-out/sign-out.handler';
import { SignUpController } from './commands/sign-up/sign-up.controller';
import { SignUpHandler } from './commands/sign-up/sign-up.handler';
import { UpdateUserController } from './commands/update-user/update-user.controller';
import { UpdateUserHandler } from './commands/update-user/update-user.handler';
import { ALL_USER_EVENT_TYPES } from './domain/user.events';
import { AUDIT_PERSON_TARGET_TYPES, auditNamesOf, IDENTITY_AUDIT_MAPPERS } from './identity.audit';
import { AccountCreation } from './application/account-creation';
import { AdminAccounts } from './application/admin-accounts';
import { StaffPasswords } from './application/staff-passwords';
import { CredentialsRepository } from './infrastructure/persistence/credentials.repository';
import { IdentityBootstrap } from './application/identity-bootstrap';
import { IdentityMails } from './infrastructure/mail/identity-mails';
import { OneTimeTokens } from './infrastructure/persistence/one-time-tokens';
import { PasswordHasher } from './infrastructure/passwords/password-hasher';
import { RefreshTokens } from './infrastructure/sessions/refresh-tokens';
import { Sessions } from './infrastructure/sessions/sessions';
import { UserSessions } from './infrastructure/sessions/user-sessions';
import { ListSessionsController } from './queries/list-sessions/list-sessions.controller';
import { EndSessionController } from './commands/end-session/end-session.controller';
import { EndClientSessionsController } from './commands/end-client-sessions/end-client-sessions.controller';
import { EndClientSessionsHandler } from './commands/end-client-sessions/end-client-sessions.handler';
import { UsersActorLookup } from './infrastructure/access/users-actor-lookup';
import { ViewAsLog } from './infrastructure/access/view-as-log';
import { OpenViewAsController } from './commands/open-view-as/open-view-as.controller';
import { OpenViewAsHandler } from './commands/open-view-as/open-view-as.handler';
import { ActorCache } from './infrastructure/access/actor-cache';
import { NoteReader } from './projections/user-notes/note-reader';
import { UserNotesProjection } from './projections/user-notes/user-notes.projection';
import { UserReader } from './projections/users/user-reader';
import { UsersProjection } from './projections/users/users.projection';
import { GetCurrentUserController } from './queries/get-current-user/get-current-user.controller';
import { GetUserController } from './queries/get-user/get-user.controller';
import { GetUserHandler } from './queries/get-user/get-user.handler';
import { ListNotesController } from './queries/list-notes/list-notes.controller';
import { ListNotesHandler } from './queries/list-notes/list-notes.handler';
import { UserSearch } from './projections/users/user-search';
import { ClientSelection } from './application/client-selection';
import { SearchStaffController } from './queries/search-staff/search-staff.controller';
import { SearchStaffHandler } from './queries/search-staff/search-staff.handler';
import { SearchUsersController } from './queries/search-users/search-users.controller';
import { SearchUsersHandler } from './queries/search-users/search-users.handler';

/**
 * Identity: accounts, sessions, passwords, staff administration of users, notes. Global because the platform's
 * JWT guard needs its ActorLookup, and other contexts read users through the exported UserReader.
 */
@Global()
@Module({
  controllers: [
    // Literal paths first: `/users/me`, `/users/search`, `/users/staff/search` and `/users/trial-reject` must not be
    // read as a `:uuid`.
    GetCurrentUserController,
    SearchUsersController,
    SearchStaffController,
    RejectTrialController,
    ResendConfirmationController,
    ListNotesController,
    AddNoteController,
    DeleteNoteController,
    SignUpController,
    SignInController,
    RefreshSessionController,
    SignOutController,
    StartTwoFactorEnrolmentController,
    ActivateTwoFactorController,
    DisableTwoFactorController,
    ConfirmEmailController,
    ForgotPasswordController,
    ResetPasswordController,
    ChangePasswordController,
    ChangeEmailController,
    ConfirmEmailChangeController,
    SetUserPasswordController,
    CreateUserController,
    GetUserController,
    UpdateUserController,
    ChangeUserStatusController,
    ChangeUserRoleController,
    ResetTwoFactorController,
    ListSessionsController,
    EndSessionController,
    EndClientSessionsController,
    OpenViewAsController,
  ],
  providers: [
    UserReader,
    NoteReader,
    PasswordHasher,
    CredentialsRepository,
    OneTimeTokens,
    RefreshTokens,
    Sessions,
    UserSessions,
    EndClientSessionsHandler,
    IdentityMails,
    AccountCreation,
    AdminAccounts,
    StaffPasswords,
    IdentityBootstrap,
    TwoFactorStore,
    TwoFactorEnrolmentTokens,
    TwoFactorEnrolmentGuard,
    TwoFactorSignIn,
    TwoFactorStepUp,
    ActorCache,
    { provide: ActorLookup, useClass: UsersActorLookup },
    { provide: ViewAsRecorder, useClass: ViewAsLog },
    OpenViewAsHandler,
    SignUpHandler,
    ConfirmEmailHandler,
    ResendConfirmationHandler,
    SignInHandler,
    RefreshSessionHandler,
    SignOutHandler,
    ForgotPasswordHandler,
    ResetPasswordHandler,
    ChangePasswordHandler,
    ChangeEmailHandler,
    ConfirmEmailChangeHandler,
    SetUserPasswordHandler,
    CreateUserHandler,
    UpdateUserHandler,
    ChangeUserStatusHandler,
    ChangeUserRoleHandler,
    RejectTrialHandler,
    AddNoteHandler,
    DeleteNoteHandler,
    StartTwoFactorEnrolmentHandler,
    ActivateTwoFactorHandler,
    DisableTwoFactorHandler,
    ResetTwoFactorHandler,
    GetUserHandler,
    SearchUsersHandler,
    SearchStaffHandler,
    UserSearch,
    ClientSelection,
    ListNotesHandler,
  ],
  exports: [ActorLookup, ViewAsRecorder, UserReader, AdminAccounts, ClientSelection, TwoFactorStepUp, UserSessions],
})
export class IdentityModule implements OnModuleInit {
  constructor(
    private readonly eventTypes: EventTypeRegistry,
    private readonly projections: InlineProjectionRegistry,
    private readonly auditMappers: AuditMapperRegistry,
    private readonly auditNames: AuditNameRegistry,
    private readonly users: UserReader,
    private readonly processors: ProcessorRunner,
    private readonly mailDispatcher: MailDispatcher,
    private readonly mails: IdentityMails,
    private readonly clock: Clock,
    private readonly actorCache: ActorCache,
    private readonly userSessions: UserSessions,
  ) {}

  onModuleInit(): void {
    for (const type of ALL_USER_EVENT_TYPES) this.eventTypes.register(type);
    this.projections.register(
      new UsersProjection((manager, userUuid) => this.actorCache.forgetOnCommit(manager, userUuid)),
    );
    this.projections.register(new UserNotesProjection());
    for (const type of ALL_USER_EVENT_TYPES) this.auditMappers.register(type, IDENTITY_AUDIT_MAPPERS[type]);
    this.auditNames.register(AUDIT_PERSON_TARGET_TYPES, (ids) => auditNamesOf(this.users, ids));
    this.processors.register(new IdentityMailsProcessor(this.clock));
    for (const kind of this.mails.kinds()) this.mailDispatcher.registerKind(kind);
    this.mailDispatcher.registerKind(this.userSessions.mailKind());
  }
}
