'use strict';
/*
 * Loaded into every Node.js process of the bench's server (NODE_OPTIONS=--require) when BENCH_CPU_PROFILE_DIR is
 * set. The inspector's sampling profiler starts at the first SIGUSR2 and stops at the second, writing the profile to
 * that folder as <role>-<pid>.cpuprofile, so that the bench profiles exactly its timed window and not the start-up.
 * `node --cpu-prof` cannot do that: it profiles the whole life of the process and writes only when it exits, and
 * Node.js refuses it in NODE_OPTIONS.
 */
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const directory = process.env.KUPA_BENCH_CPU_PROFILE_DIR;
if (directory) {
  const session = new Session();
  session.connect();
  let profiling = false;
  process.on('SIGUSR2', () => {
    if (!profiling) {
      profiling = true;
      session.post('Profiler.enable', () => session.post('Profiler.start'));
      return;
    }
    profiling = false;
    session.post('Profiler.stop', (error, result) => {
      const name = `${process.env.KUPA_ROLE ?? 'primary'}-${process.pid}.cpuprofile`;
      if (error) writeFileSync(join(directory, `${name}.error`), String(error));
      else writeFileSync(join(directory, name), JSON.stringify(result.profile));
    });
  });
}
