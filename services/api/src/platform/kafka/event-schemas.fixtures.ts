import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { repositoryRoot } from '../config/app-config';

/** docs/events/, where `npm run build:event-schemas` writes one JSON Schema per published event type. */
export const EVENT_SCHEMAS_DIR = join(repositoryRoot(), 'docs', 'events');

export function eventSchemaFiles(): string[] {
  return readdirSync(EVENT_SCHEMAS_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort();
}

/**
 * Checks a published message's value against the committed schema of its type, as a consumer that validates
 * would; strict, so that a schema with a keyword Ajv does not know fails too. Answers the errors, or null.
 */
export function eventSchemaValidator(): (type: string, value: unknown) => string | null {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  const validators = new Map<string, ValidateFunction>();
  return (type, value) => {
    let validate = validators.get(type);
    if (!validate) {
      validate = ajv.compile(JSON.parse(readFileSync(join(EVENT_SCHEMAS_DIR, `${type}.json`), 'utf8')) as object);
      validators.set(type, validate);
    }
    return validate(value) ? null : ajv.errorsText(validate.errors);
  };
}
