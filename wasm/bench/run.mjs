// Inference speed in WebAssembly: the relaxed-SIMD and SIMD128 builds against
// the scalar build, under node (22 for relaxed SIMD). `make bench-wasm` (see
// the README for figures).
import { performance } from 'node:perf_hooks';
import { load, relaxedUnsupported } from './load.mjs';

const minMs = Number(process.env.BENCH_MS ?? 1500);

function rate(fn) {
  let n = 1000;
  for (;;) {
    const start = performance.now();
    fn(n);
    const ms = performance.now() - start;
    if (ms >= minMs) return (n / ms) * 1000;
    n = Math.ceil(n * Math.min(10, Math.max(2, (minMs * 1.2) / Math.max(ms, 1))));
  }
}

const why = await relaxedUnsupported();
if (why) console.log(`relaxed build skipped: ${why}`);
const builds = why ? ['scalar', 'simd128'] : ['scalar', 'simd128', 'relaxed'];

const fmt = (perSecond) => `${(perSecond / 1e6).toFixed(3).padStart(9)} M/s (${(1e9 / perSecond).toFixed(0).padStart(6)} ns)`;

for (const [full, name] of [[0, '773-100-100-100 + 200-100-100-2'], [1, '773-600-400-200-100 + 200-400-200-100-2']]) {
  console.log(`network ${name}`);
  console.log(`${'build'.padEnd(8)} ${'update/s'.padStart(26)} ${'embed/s'.padStart(26)} ${'compare/s'.padStart(26)}`);
  const results = {};
  for (const build of builds) {
    const wasm = await load(build);
    wasm.dc_bench_setup(full, 64);
    results[build] = [rate(wasm.dc_bench_update), rate(wasm.dc_bench_embed), rate(wasm.dc_bench_compare)];
    console.log(`${build.padEnd(8)} ${results[build].map(fmt).join(' ')}`);
  }
  for (const build of builds.slice(1)) {
    const speedup = results[build].map((r, i) => (r / results.scalar[i]).toFixed(2));
    console.log(`${`${build}×`.padEnd(8)} ${speedup.map((s) => `${s}x`.padStart(26)).join(' ')}`);
  }
}
