import type { SupportContacts } from '@kupa/proto';

export const COMMON_OPTIONS = Symbol('COMMON_OPTIONS');

export interface CommonOptions {
  version: string;
  /** The deployment's support contacts, published with the dictionaries. */
  support: SupportContacts;
}
