// Move generation natively and in WebAssembly, shakmaty against cozy-chess
// (`make bench-movegen`; the crate's lib.rs says what is timed):
//   node run.mjs NATIVE_BINARY MODULE.wasm [ROUNDS]
// Each round runs the native binary, then the module under this node, so
// the machine's drift falls on both; the table gives each one's fastest
// round and the ratio of the two targets per library.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const [native, module, roundsArg] = process.argv.slice(2);
if (!native || !module) {
  console.error('usage: node run.mjs NATIVE_BINARY MODULE.wasm [ROUNDS]');
  process.exit(2);
}
const rounds = Number(roundsArg ?? 3);
const { instance } = await WebAssembly.instantiate(readFileSync(module), {});
const { run, expected_count: expectedCount, positions, search_depth: searchDepth } = instance.exports;
// The depths the module searches (the native binary's too), perft's and the walk's.
const depths = (walk) => Array.from({ length: positions() }, (_, index) => searchDepth(walk, index));
const works = ['Perft', 'Walk'];
const libraries = ['Shakmaty', 'Cozy'];
const best = {};
const keep = (key, seconds, count) => {
  if (best[key] && best[key].count !== count) throw new Error(`${key}: ${count} against ${best[key].count}`);
  if (!best[key] || seconds < best[key].seconds) best[key] = { seconds, count };
};
for (let round = 0; round < rounds; round++) {
  for (const line of execFileSync(native, { encoding: 'utf8' }).trim().split('\n')) {
    const [work, library, seconds, count] = line.split(' ');
    keep(`native ${work} ${library}`, Number(seconds), BigInt(count));
  }
  works.forEach((work, walk) => libraries.forEach((library, lib) => {
    const start = performance.now();
    let total = 0n;
    depths(walk).forEach((d, index) => {
      const n = run(lib, walk, index, d);
      if (!walk && n !== expectedCount(index, d)) throw new Error(`${library}: position ${index}: ${n}`);
      total += n;
    });
    keep(`wasm ${work} ${library}`, (performance.now() - start) / 1000, total);
  }));
}
console.log(`fastest of ${rounds} rounds, seconds (the six positions; perft to depths ${depths(0).join(', ')}, the walk to ${depths(1).join(', ')})`);
console.log(`${'work'.padEnd(6)} ${'library'.padEnd(9)} ${'native'.padStart(8)} ${'wasm'.padStart(8)} ${'wasm÷native'.padStart(12)}`);
for (const work of works) {
  for (const library of libraries) {
    const n = best[`native ${work} ${library}`].seconds;
    const w = best[`wasm ${work} ${library}`].seconds;
    console.log(`${work.padEnd(6)} ${library.padEnd(9)} ${n.toFixed(3).padStart(8)} ${w.toFixed(3).padStart(8)} ${(n / w).toFixed(2).padStart(12)}`);
  }
  const s = (target) => best[`${target} ${work} Shakmaty`].seconds / best[`${target} ${work} Cozy`].seconds;
  console.log(`${work.padEnd(6)} cozy-chess ${s('native').toFixed(2)}× shakmaty's speed natively, ${s('wasm').toFixed(2)}× in wasm`);
}
