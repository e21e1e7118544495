import { PlanRequestDto } from '../../infrastructure/plan-request.dto';

/** `PUT /payment-plans/{id}`: the whole package as it should be, status included. */
export class UpdatePlanRequestDto extends PlanRequestDto {}
