#!/usr/bin/env node
// Writes docs/events/<EventType>.json: the JSON Schema of each event as the Kafka fan-out publishes it
// (docs/adr/0035-kafka-fan-out.md), made from proto's types, so the published contract has one source. Each schema is
// proto's `PublishedEventEnvelope` with `type` fixed to the event's name and `data` the event's payload type from
// `EventDataByType`.
//
//   node scripts/build-event-schemas.mjs          (npm run build:event-schemas) write the files
//   node scripts/build-event-schemas.mjs --check  (part of npm run lint) fail when a committed file is stale, missing
//                                                 or left over
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { createGenerator } from 'ts-json-schema-generator';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'docs', 'events');
const check = process.argv.includes('--check');

const generator = createGenerator({
  path: path.join(root, 'proto', 'src', 'published-events.ts'),
  tsconfig: path.join(root, 'proto', 'tsconfig.json'),
  expose: 'export',
  topRef: false,
  jsDoc: 'extended',
  // `npm run typecheck` checks proto; the generator only needs to read its types.
  skipTypeCheck: true,
  additionalProperties: false,
});
const payloads = generator.createSchema('EventDataByType');
const envelope = generator.createSchema('PublishedEventEnvelope');
const definitions = { ...payloads.definitions, ...envelope.definitions };

/** The names of the definitions a schema reaches through `$ref`, followed through the definitions themselves. */
function reachable(schema) {
  const found = new Set();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = decodeURIComponent(value.replace('#/definitions/', ''));
        if (!found.has(name)) {
          found.add(name);
          visit(definitions[name]);
        }
      } else visit(value);
    }
  };
  visit(schema);
  return [...found].sort();
}

function schemaOf(type) {
  const data = payloads.properties[type];
  const properties = { ...envelope.properties, type: { const: type }, data };
  const body = {
    type: 'object',
    properties,
    required: envelope.required,
    additionalProperties: false,
  };
  const dataName = decodeURIComponent(data.$ref?.replace('#/definitions/', '') ?? '');
  return {
    $schema: envelope.$schema,
    title: type,
    description:
      `${definitions[dataName]?.description ?? `The ${type} event.`} ` +
      `Published to Kafka as the value of a message (docs/events/README.md).`,
    ...body,
    definitions: Object.fromEntries(reachable(body).map((name) => [name, definitions[name]])),
  };
}

const prettierOptions = { ...(await prettier.resolveConfig(path.join(outDir, 'x.json'))), parser: 'json' };
const wanted = new Map();
for (const type of Object.keys(payloads.properties).sort()) {
  wanted.set(`${type}.json`, await prettier.format(JSON.stringify(schemaOf(type)), prettierOptions));
}

const present = existsSync(outDir) ? readdirSync(outDir).filter((name) => name.endsWith('.json')) : [];
const problems = [];
for (const [name, text] of wanted) {
  const file = path.join(outDir, name);
  const current = existsSync(file) ? readFileSync(file, 'utf8') : null;
  if (current === text) continue;
  if (check) problems.push(`${current === null ? 'missing' : 'stale'}: docs/events/${name}`);
  else {
    mkdirSync(outDir, { recursive: true });
    writeFileSync(file, text);
  }
}
for (const name of present.filter((name) => !wanted.has(name))) {
  if (check) problems.push(`no such event type any more: docs/events/${name}`);
  else rmSync(path.join(outDir, name));
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error('The event schemas differ from proto: run `npm run build:event-schemas` and commit docs/events/.');
  process.exit(1);
}
console.log(
  check
    ? `docs/events: ${wanted.size} event schemas match proto`
    : `docs/events: wrote ${wanted.size} event schemas from proto`,
);
