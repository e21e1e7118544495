import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Set by the global setup: a directory that lives as long as the Jest run (the code cannot change within it). */
export const RUN_DIRECTORY_VARIABLE = 'KUPA_TEST_RUN_DIR';

/**
 * What decides the document within one run: the controllers the app's modules hold (the configuration adds some, such
 * as the simulator's fault routes or the Telegram webhook) and the version it states. Routes and schemas are
 * decorators on those classes, the same for every app of a run; `openapi-cache.api-spec.ts` builds the document
 * afresh and compares.
 */
export function routeSetKey(app: INestApplication, version: string): string {
  const controllers: string[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) controllers.push(`${module.name}:${wrapper.name}`);
  }
  controllers.sort();
  return createHash('sha256').update(JSON.stringify({ version, controllers })).digest('hex').slice(0, 32);
}

/**
 * The spec apps' OpenAPI document, built once per route set and Jest run and read from a file by every later app:
 * building it took about a third of a second of CPU per spec file (docs/benchmarks.md, "CI time, fifth cut"). Without
 * the run directory (a spec run without the global setup) every app builds its own.
 */
export function cachedOpenApiDocument(version: string) {
  return (build: () => OpenAPIObject, app: INestApplication): OpenAPIObject => {
    const directory = process.env[RUN_DIRECTORY_VARIABLE];
    if (!directory) return build();
    const file = join(directory, 'openapi', `${routeSetKey(app, version)}.json`);
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as OpenAPIObject;
    } catch {
      const document = build();
      mkdirSync(join(directory, 'openapi'), { recursive: true });
      // Two workers may build the same document at once: each writes its own file and renames it into place whole.
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, JSON.stringify(document));
      renameSync(partial, file);
      return document;
    }
  };
}
