import { PlanRequestDto } from '../../infrastructure/plan-request.dto';

/** `POST /payment-plans`: every term and the status of the new package. */
export class CreatePlanRequestDto extends PlanRequestDto {}
