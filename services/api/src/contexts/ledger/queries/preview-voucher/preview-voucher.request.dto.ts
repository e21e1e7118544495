import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

export class PreviewVoucherRequestDto {
  @ApiProperty({
    example: 'ABCD-EFGH-JKMN-PQRS',
    maxLength: 64,
    description: 'The code as printed; case, spaces and dashes do not matter',
  })
  @IsString({ message: 'error.validation.invalid.input' })
  @MaxLength(64, { message: 'error.validation.too.many.symbols' })
  code: string;
}
