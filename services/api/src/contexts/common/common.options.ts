import type { SupportContacts } from '@kupa/proto';

export const COMMON_OPTIONS = Symbol('COMMON_OPTIONS');

export interface CommonOptions {
  version: string;
  /** The deployment's support contacts, published with the dictionaries. */
  support: SupportContacts;
  /** The streaming service's site (`STREAMING_SITE_URL`), published with the dictionaries; null when not configured. */
  streamingSiteUrl: string | null;
}
