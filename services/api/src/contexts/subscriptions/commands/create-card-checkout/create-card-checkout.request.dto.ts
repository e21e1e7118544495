import type { CardCheckoutRequest } from '@kupa/proto';
import { LoginAndPasswordDto } from '../../infrastructure/subscription-requests.dto';

/** The streaming-service login and password of the subscription the card checkout buys. */
export class CreateCardCheckoutRequestDto extends LoginAndPasswordDto implements CardCheckoutRequest {}
