import { type PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { ApiError } from '../../../../platform/http';

const RECEIPT_NUMBER_PATTERN = /^[1-9]\d{0,15}$/;

/** A path receipt number; a malformed one names no receipt, so it answers like a missing one (404). */
export class ReceiptNumberPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    const number = Number(value);
    if (!RECEIPT_NUMBER_PATTERN.test(value) || !Number.isSafeInteger(number))
      throw new ApiError('error.receipt.not.found');
    return number;
  }
}

export const ApiReceiptNumberParam = (): MethodDecorator =>
  ApiParam({ name: 'number', schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } });
