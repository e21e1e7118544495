import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';

/**
 * The peer's schema, as a NestJS + TypeORM developer would write a small ledger: a balance column on the account,
 * a transfer row and its two double-entry rows. bigint columns come back from `pg` as strings; the transformer turns
 * them into numbers (minor units stay far below 2^53 here).
 */
const bigintAsNumber = {
  to: (value: number) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

@Entity('peer_users')
export class PeerUser {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index({ unique: true })
  @Column({ type: 'text' })
  email!: string;
}

@Entity('peer_accounts')
export class Account {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index({ unique: true })
  @Column({ name: 'owner_id', type: 'int' })
  ownerId!: number;

  @OneToOne(() => PeerUser)
  @JoinColumn({ name: 'owner_id' })
  owner!: PeerUser;

  @Column({ name: 'balance_minor', type: 'bigint', transformer: bigintAsNumber })
  balanceMinor!: number;
}

@Entity('peer_transfers')
export class Transfer {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'from_account_id', type: 'int' })
  fromAccountId!: number;

  @ManyToOne(() => Account)
  @JoinColumn({ name: 'from_account_id' })
  fromAccount!: Account;

  @Column({ name: 'to_account_id', type: 'int' })
  toAccountId!: number;

  @ManyToOne(() => Account)
  @JoinColumn({ name: 'to_account_id' })
  toAccount!: Account;

  @Column({ name: 'amount_minor', type: 'bigint', transformer: bigintAsNumber })
  amountMinor!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

@Entity('peer_entries')
export class Entry {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'transfer_id', type: 'bigint' })
  transferId!: string;

  @ManyToOne(() => Transfer)
  @JoinColumn({ name: 'transfer_id' })
  transfer!: Transfer;

  /** The account statement reads entries by account, newest first. */
  @Index()
  @Column({ name: 'account_id', type: 'int' })
  accountId!: number;

  @ManyToOne(() => Account)
  @JoinColumn({ name: 'account_id' })
  account!: Account;

  /** Signed: the debit is negative, the credit positive; a transfer's two entries sum to zero. */
  @Column({ name: 'amount_minor', type: 'bigint', transformer: bigintAsNumber })
  amountMinor!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

export const PEER_ENTITIES = [PeerUser, Account, Transfer, Entry];
