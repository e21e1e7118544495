export const COMMON_OPTIONS = Symbol('COMMON_OPTIONS');

export interface CommonOptions {
  version: string;
}
