import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Staff notes about a user: added and deleted through the user stream. */
@Entity({ name: 'user_notes' })
export class UserNoteView {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'user_uuid', type: 'uuid' })
  userUuid: string;

  @Column({ type: 'text' })
  text: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'created_by_id', type: 'text' })
  createdById: string;

  @Column({ name: 'created_by_name', type: 'text' })
  createdByName: string;
}
