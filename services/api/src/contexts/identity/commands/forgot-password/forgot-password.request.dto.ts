export { EmailRequestDto as ForgotPasswordRequestDto } from '../resend-confirmation/resend-confirmation.request.dto';
