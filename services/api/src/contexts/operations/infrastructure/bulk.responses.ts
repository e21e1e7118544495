import { ApiProperty } from '@nestjs/swagger';
import {
  BULK_ACTIONS,
  BULK_BATCH_STATUSES,
  BULK_TARGET_KINDS,
  type BulkAction,
  type BulkBatch,
  type BulkBatchList,
  type BulkBatchStatus,
  type BulkPreview,
  type BulkTargetKind,
  type BulkTargetSample,
} from '@kupa/proto';

/** The answers of the bulk operation routes, for the OpenAPI document (docs/adr/0090-bulk-operations.md). */
export class BulkBatchDto implements BulkBatch {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: BULK_ACTIONS })
  action: BulkAction;

  @ApiProperty({ enum: BULK_TARGET_KINDS })
  targetKind: BulkTargetKind;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The selection as the admin made it' })
  filter: Record<string, unknown>;

  @ApiProperty()
  reason: string;

  @ApiProperty({ nullable: true, type: String })
  publicNote: string | null;

  @ApiProperty({ nullable: true, type: Number, description: 'The goodwill credit per client, in dollars' })
  amount: number | null;

  @ApiProperty({ nullable: true, type: Number })
  days: number | null;

  @ApiProperty({ enum: BULK_BATCH_STATUSES })
  status: BulkBatchStatus;

  @ApiProperty({ description: 'The targets frozen at the start' })
  targetCount: number;

  @ApiProperty()
  doneCount: number;

  @ApiProperty()
  failedCount: number;

  @ApiProperty({ format: 'date-time' })
  startedAt: string;

  @ApiProperty({ description: 'The admin who started it' })
  startedBy: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  completedAt: string | null;
}

export class BulkBatchListDto implements BulkBatchList {
  @ApiProperty({ type: [BulkBatchDto] })
  items: BulkBatchDto[];
}

export class BulkTargetSampleDto implements BulkTargetSample {
  @ApiProperty()
  id: string;

  @ApiProperty({ description: "The client's e-mail address" })
  label: string;
}

export class BulkPreviewDto implements BulkPreview {
  @ApiProperty({ enum: BULK_ACTIONS })
  action: BulkAction;

  @ApiProperty({ enum: BULK_TARGET_KINDS })
  targetKind: BulkTargetKind;

  @ApiProperty({ description: 'How many targets the selection matches now' })
  total: number;

  @ApiProperty({ type: [BulkTargetSampleDto] })
  sample: BulkTargetSampleDto[];
}
