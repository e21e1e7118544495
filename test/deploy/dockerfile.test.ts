import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEPLOY_DIR, REPOSITORY_ROOT } from './paths.ts';

/**
 * deploy/Dockerfile, read statically (no container engine here): every file it copies from the repository exists,
 * the stages build with `npm ci` and `npm run build`, and the server runs a built entry point as a non-root user.
 */
const dockerfile = readFileSync(join(DEPLOY_DIR, 'Dockerfile'), 'utf8');
/** Instructions with their continuation lines joined. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'));

interface Stage {
  name: string;
  base: string;
  lines: string[];
}

const stages: Stage[] = [];
for (const line of instructions) {
  const from = /^FROM (\S+) AS (\S+)$/.exec(line);
  if (from) stages.push({ base: from[1], name: from[2], lines: [] });
  else stages.at(-1)?.lines.push(line);
}
const stage = (name: string): Stage => {
  const found = stages.find((candidate) => candidate.name === name);
  assert.ok(found, `no stage ${name}`);
  return found;
};

/** `src/x.ts` of the API for `services/api/dist/x.js` (tsc keeps the layout under dist/). */
function apiSource(builtPath: string): string {
  const match = /^services\/api\/dist\/(.+)\.js$/.exec(builtPath);
  assert.ok(match, `${builtPath} is not a built API file`);
  return join(REPOSITORY_ROOT, 'services', 'api', 'src', `${match[1]}.ts`);
}

describe('deploy/Dockerfile', () => {
  it('has a build stage, an nginx stage with the UIs and the server stage last (the default target)', () => {
    assert.deepEqual(
      stages.map(({ name }) => name),
      ['build', 'web', 'server'],
    );
    assert.match(stage('build').base, /^node:/);
    assert.match(stage('server').base, /^node:/);
    assert.match(stage('web').base, /^nginx:/);
  });

  it('builds and runs on one Node 24 image, its tag beside its digest, the version CI runs on Node 24', () => {
    const pinned = /^node:(24\.\d+\.\d+)-bookworm-slim@sha256:[0-9a-f]{64}$/;
    const base = stage('build').base;
    assert.match(base, pinned);
    assert.equal(stage('server').base, base);
    const node24Script = readFileSync(join(REPOSITORY_ROOT, 'scripts', 'node24.sh'), 'utf8');
    const ciVersion = /^NODE24_VERSION=(\S+)$/m.exec(node24Script)?.[1];
    assert.equal(pinned.exec(base)?.[1], ciVersion, 'scripts/node24.sh installs another version than the image has');
  });

  it('copies only files the repository has, and leaves dependencies and builds out of the context', () => {
    const sources = instructions
      .filter((line) => line.startsWith('COPY ') && !line.includes('--from='))
      .flatMap((line) => line.split(/\s+/).slice(1, -1));
    assert.ok(sources.length >= 7);
    for (const source of sources) assert.ok(existsSync(join(REPOSITORY_ROOT, source)), `COPY ${source}: missing`);
    const ignored = readFileSync(join(REPOSITORY_ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['**/node_modules', '**/dist', '.kupa', 'deploy/.env'])
      assert.ok(ignored.includes(entry), entry);
  });

  it('installs with npm ci, builds with npm run build, and keeps only production dependencies', () => {
    const build = stage('build').lines.join('\n');
    assert.match(build, /RUN npm ci\b/);
    assert.match(build, /RUN npm run build && npm prune --omit=dev/);
    const rootPackage = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    assert.ok(rootPackage.scripts.build);
    // Every workspace whose output the server image takes is built by that script.
    for (const workspace of ['proto', 'services/api', 'admin-ui', 'client-ui']) {
      assert.ok(build.includes(`${workspace}/dist`) || build.includes(`${workspace}/package.json`), workspace);
      const manifest = JSON.parse(readFileSync(join(REPOSITORY_ROOT, workspace, 'package.json'), 'utf8')) as {
        name: string;
        scripts: Record<string, string>;
      };
      assert.ok(manifest.scripts.build, `${workspace} has no build script`);
      assert.ok(rootPackage.scripts.build.includes(manifest.name) || manifest.name === '@kupa/proto', manifest.name);
    }
  });

  it('puts nginx.conf and both UIs into the web image', () => {
    const web = stage('web').lines.join('\n');
    assert.match(web, /COPY deploy\/nginx\.conf \/etc\/nginx\/nginx\.conf/);
    assert.match(web, /COPY --from=build \/app\/client-ui\/dist \/usr\/share\/kupa\/client/);
    assert.match(web, /COPY --from=build \/app\/admin-ui\/dist \/usr\/share\/kupa\/admin/);
  });

  it('runs a built entry point of the API as the unprivileged node user, with pg_dump for backups', () => {
    const server = stage('server').lines;
    const user = server.findIndex((line) => line.startsWith('USER '));
    const cmd = server.findIndex((line) => line.startsWith('CMD '));
    assert.equal(server[user], 'USER node');
    assert.ok(user < cmd);
    const command = JSON.parse(server[cmd].slice(4)) as string[];
    assert.equal(command[0], 'node');
    assert.ok(existsSync(apiSource(command[1])), `${command[1]} has no source`);
    assert.match(server.join('\n'), /postgresql-client-\$\{POSTGRES_MAJOR\}/);
    assert.match(server.join('\n'), /KUPA_ROLE=all/);
    // The commands the deployment runs in this image: the CLI and its migrate command.
    const cli = 'services/api/dist/cli.js';
    assert.ok(existsSync(apiSource(cli)));
    assert.match(readFileSync(apiSource('services/api/dist/cli.commands.js'), 'utf8'), /words: \['migrate'\]/);
  });
});
