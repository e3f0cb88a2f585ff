// Loaded with --import by bench/lib.ts when BENCH_PROFILE_DIR is set: profiles the main thread
// from the start, and on each SIGUSR2 writes what was recorded since the previous one to
// BENCH_PROFILE_DIR/main-<pid>-<n>.cpuprofile and starts again. A profile is thus taken while the
// server runs (e.g. over one measuring window), not at exit — a server stopped under heavy load
// did not reach the end of its exit in time for --cpu-prof to write.
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

const dir = process.env.BENCH_PROFILE_DIR;
const session = new inspector.Session();
session.connect();
const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
await post('Profiler.enable');
await post('Profiler.start');
let n = 0;
process.on('SIGUSR2', async () => {
  const { profile } = await post('Profiler.stop');
  const file = path.join(dir, `main-${process.pid}-${++n}.cpuprofile`);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(profile));
  fs.renameSync(`${file}.tmp`, file);
  await post('Profiler.start');
});
