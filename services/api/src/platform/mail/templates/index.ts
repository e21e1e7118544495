export { confirmationMail, type ConfirmationMailParams } from './confirmation.template';
export {
  emailChangedMail,
  emailChangeLinkMail,
  type EmailChangeLinkMailParams,
  emailChangeRequestedMail,
  type EmailChangeNoticeParams,
} from './email-change.template';
export { passwordResetMail, type PasswordResetMailParams } from './password-reset.template';
export { twoFactorResetMail, type TwoFactorResetMailParams } from './two-factor-reset.template';
export { escapeHtml, type RenderedMail, renderLinkMail } from './render';
