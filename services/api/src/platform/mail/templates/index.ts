export { confirmationMail, type ConfirmationMailParams } from './confirmation.template';
export { passwordResetMail, type PasswordResetMailParams } from './password-reset.template';
export { escapeHtml, type RenderedMail } from './render';
