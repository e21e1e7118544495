import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  checkIsoDateTime,
  isSortColumn,
  LIMITS,
  type Page,
  PATTERNS,
  type SortableResource,
  type SortColumn,
} from '@kupa/proto';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ValidationFailedError } from './api-error';
import { codeMessage, OptionalField, SatisfiesRule } from './validation';

export class SortDto {
  @ApiProperty({ description: 'A column the resource offers for sorting' })
  @IsString()
  @MaxLength(64)
  id: string;

  @ApiProperty()
  @IsBoolean()
  desc: boolean;
}

/** A date filter's bound: a calendar day or an instant with its offset, held to proto's `checkIsoDateTime`. */
export const IsoDateTimeField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      pattern: PATTERNS.isoDateTime.source,
      nullable: true,
      description: 'A calendar day (`2026-05-03`) or an instant with its offset (`2026-05-03T10:00:00Z`)',
    }),
    IsOptional(),
    SatisfiesRule(checkIsoDateTime),
  );

export class DateRangeDto {
  @IsoDateTimeField()
  from?: string | null;

  @IsoDateTimeField()
  to?: string | null;
}

/** The last page a search may ask for; beyond the search window they are empty anyway (ADR 0010). */
export const PAGE_MAX = 1_000_000;

/** A page of a list: which page and how many rows (docs/api.md, Searching and paging). */
export class PageRequestDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: PAGE_MAX, default: LIMITS.pageDefault })
  @OptionalField()
  @IsInt()
  @Min(0)
  @Max(PAGE_MAX)
  page?: number = LIMITS.pageDefault;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: LIMITS.pageSizeMax, default: LIMITS.pageSizeDefault })
  @OptionalField()
  @IsInt()
  @Min(1, { message: codeMessage('error.validation.min', { min: 1 }) })
  @Max(LIMITS.pageSizeMax, { message: codeMessage('error.validation.page.size', { max: LIMITS.pageSizeMax }) })
  size?: number = LIMITS.pageSizeDefault;
}

/** The paging and sorting every `POST …/search` body shares (docs/api.md, Searching and paging). */
export class SearchRequestDto extends PageRequestDto {
  @ApiPropertyOptional({ type: [SortDto], maxItems: LIMITS.sortsMaxItems, default: [] })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.sortsMaxItems, {
    message: codeMessage('error.validation.max.items', { maxItems: LIMITS.sortsMaxItems }),
  })
  @ValidateNested({ each: true })
  @Type(() => SortDto)
  sorts?: SortDto[] = [];
}

/** The SQL each sortable column of a resource orders by; the keys are exactly proto's `SORTABLE_COLUMNS`. */
export type SortColumnSql<R extends SortableResource> = Readonly<Record<SortColumn<R>, string>>;

/**
 * Turns requested sorts into SQL ORDER BY terms through proto's `SORTABLE_COLUMNS`, so a client can only sort by the
 * columns a resource offers; unknown ids are a 400 rather than silently ignored. `isSortColumn` counts only the
 * list's own entries: `constructor` or `toString` would otherwise find the members every object inherits.
 */
export function orderByFromSorts<R extends SortableResource>(
  sorts: SortDto[] | undefined,
  resource: R,
  columns: SortColumnSql<R>,
  fallback: string,
): string {
  const terms: string[] = [];
  for (const sort of sorts ?? []) {
    if (!isSortColumn(resource, sort.id)) {
      throw new ValidationFailedError([
        { field: 'sorts', error: 'error.validation.invalid.field', params: { id: sort.id } },
      ]);
    }
    terms.push(`${columns[sort.id]} ${sort.desc ? 'DESC' : 'ASC'}`);
  }
  terms.push(fallback);
  return terms.join(', ');
}

/** `totalIsLowerBound`: the total counts part of what matches, and says so (ADR 0125); absent otherwise. */
export function toPage<T>(
  content: T[],
  page: number,
  size: number,
  totalElements: number,
  totalIsLowerBound = false,
): Page<T> {
  const totalPages = Math.ceil(totalElements / size);
  return { content, page, size, totalElements, totalPages, ...(totalIsLowerBound ? { totalIsLowerBound } : {}) };
}
