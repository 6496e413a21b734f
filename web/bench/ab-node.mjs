// Two or more builds of the browser engine against each other, without a browser: each cargo
// .wasm goes through wasm-bindgen and, unless its level is `none`, wasm-opt at that level (with
// the Makefile's feature flags), and all of them load into one node process. Every bench
// position is searched to a fixed depth by each build in turn (the order reversed every other
// round), after a warm-up round two plies shallower that lets V8 tier the hot functions up, so
// that the machine's drift falls on every build alike. Fixed depths give the same nodes to
// every build of the same search; a build that searches differently says so in its node count.
//   web/node_modules/.bin/node web/bench/ab-node.mjs [--depth 9] [--rounds 3] A.wasm[:LEVEL] B.wasm[:LEVEL] …
// LEVEL is a wasm-opt level (`-Oz`, the Makefile's, by default; `-O3`, …) or `none`. Naming the
// same build twice measures the noise. Pin it with `taskset -c N` on a shared machine. Node 22
// (web/node_modules) runs relaxed SIMD; the cargo modules are those `make wasm-web` builds, e.g.
// ~/.cache/deepchess/target/wasm-web-relaxed/wasm32-unknown-unknown/release/deepchess_wasm.wasm.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fens } from './flow.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const wasmOpt = join(here, '..', 'node_modules', '.bin', 'wasm-opt');
// The Makefile's WASM_OPT_FLAGS and the features of its threaded relaxed-SIMD build.
const features = [
  '--enable-bulk-memory', '--enable-sign-ext', '--enable-mutable-globals', '--enable-nontrapping-float-to-int',
  '--enable-reference-types', '--enable-multivalue', '--enable-threads', '--enable-simd', '--enable-relaxed-simd',
];

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

const scratch = mkdtempSync(join(tmpdir(), 'deepchess-ab-'));
const builds = [];
try {
  for (const [k, spec] of args.entries()) {
    const colon = spec.lastIndexOf(':');
    const [wasm, level] = colon > 0 ? [spec.slice(0, colon), spec.slice(colon + 1)] : [spec, '-Oz'];
    const out = join(scratch, String(k));
    execFileSync('wasm-bindgen', ['--target', 'web', '--no-typescript', '--out-dir', out, '--out-name', 'ab', wasm]);
    const module = join(out, 'ab_bg.wasm');
    if (level !== 'none') execFileSync(wasmOpt, [level, ...features, module, '-o', module]);
    const bytes = readFileSync(module);
    const glue = await import(pathToFileURL(join(out, 'ab.js')).href);
    await glue.default({ module_or_path: bytes });
    const engine = new glue.Engine();
    engine.handle('setoption name Search value scalar');
    builds.push({ name: `${spec} (${bytes.length} bytes)`, engine, ms: 0, nodes: 0 });
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

// Milliseconds and nodes of one search of `fen` to `plies` by `build`.
const search = (build, fen, plies) => {
  build.engine.handle('ucinewgame');
  build.engine.handle(`position fen ${fen}`);
  const started = performance.now();
  build.engine.handle(`go depth ${plies}`);
  let last = '';
  while (build.engine.thinking) {
    for (const line of build.engine.think(4096)) if (line.startsWith('info depth') && line.includes(' nodes ')) last = line;
  }
  return [performance.now() - started, Number(/ nodes (\d+)/.exec(last)[1])];
};

for (const fen of fens) for (const build of builds) search(build, fen, depth - 2);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 ? [...builds].reverse() : builds;
  for (const fen of fens) {
    for (const build of order) {
      const [ms, nodes] = search(build, fen, depth);
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
