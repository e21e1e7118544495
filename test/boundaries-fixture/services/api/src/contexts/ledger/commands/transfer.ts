import { secretOf } from '../../identity';
// The deliberate cross-context deep import: identity's infrastructure instead of identity's index.
import { secretOf as deepSecretOf } from '../../identity/infrastructure/secrets';

export const transfer = (name: string): string => secretOf(name) + deepSecretOf(name);
