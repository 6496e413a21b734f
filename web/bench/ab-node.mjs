// Two or more builds of the browser engine against each other, without a browser: each cargo
// .wasm goes through wasm-bindgen and, unless its level is `none`, wasm-opt at that level (with
// the feature flags the Makefile gives its threaded relaxed-SIMD build, a superset of every
// build's), and all of them load into one node process. Every bench position is searched to a
// fixed depth by each build in turn (the order reversed every other round), after a warm-up
// round two plies shallower that lets V8 tier the hot functions up, so that the machine's drift
// falls on every build alike. Fixed depths give the same nodes to every build of the same
// search; a build that searches differently says so in its node count.
//   web/node_modules/.bin/node web/bench/ab-node.mjs [--depth 9] [--rounds 3] A.wasm[:LEVEL] B.wasm[:LEVEL] …
// LEVEL is a wasm-opt level (the Makefile's, `-Oz`, by default; `-O3`, …) or `none`. Naming the
// same build twice measures the noise. Pin it with `taskset -c N` on a shared machine. Node 22
// (web/node_modules) runs relaxed SIMD; the cargo modules are those `make wasm-web` builds, e.g.
// ~/.cache/deepchess/target/wasm-web-relaxed/wasm32-unknown-unknown/release/deepchess_wasm.wasm.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fens } from './flow.mjs';
import { loadEngine, searchDepth, wasmOptFlags } from './node-engine.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args.splice(i, 2)[1]) : fallback;
};
const depth = option('--depth', 9);
const rounds = option('--rounds', 3);
if (args.length < 2 || depth < 3) {
  console.error('usage: ab-node.mjs [--depth N (at least 3)] [--rounds R] A.wasm[:LEVEL] B.wasm[:LEVEL] …');
  process.exit(2);
}

const [makeLevel, ...features] = wasmOptFlags('relaxed_mt');
const scratch = mkdtempSync(join(tmpdir(), 'deepchess-ab-'));
const builds = [];
try {
  for (const [k, spec] of args.entries()) {
    const colon = spec.lastIndexOf(':');
    const [wasm, level] = colon > 0 ? [spec.slice(0, colon), spec.slice(colon + 1)] : [spec, makeLevel];
    const opt = level === 'none' ? null : [level, ...features];
    const { engine, bytes } = await loadEngine(wasm, join(scratch, String(k)), { name: 'ab', opt });
    builds.push({ name: `${spec} (${bytes} bytes)`, engine, ms: 0, nodes: 0 });
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

for (const fen of fens) for (const build of builds) searchDepth(build.engine, fen, depth - 2);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 ? [...builds].reverse() : builds;
  for (const fen of fens) {
    for (const build of order) {
      const { ms, nodes } = searchDepth(build.engine, fen, depth);
      build.ms += ms;
      build.nodes += nodes;
    }
  }
}
console.log(`${fens.length} positions to depth ${depth}, ${rounds} rounds, each build in turn:`);
for (const build of builds) {
  const speed = Math.round((1000 * build.nodes) / build.ms);
  const ratio = (builds[0].ms / build.ms) * (build.nodes / builds[0].nodes);
  console.log(`${build.name}: ${build.nodes} nodes in ${build.ms.toFixed(0)} ms, ${speed} nodes/s, ${ratio.toFixed(3)}× the first`);
}
