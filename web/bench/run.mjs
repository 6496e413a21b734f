// Browser benchmarks: `make bench-web`, or
//   node web/bench/run.mjs --native target/release/deepchess [--depth 5 | --movetime MS] [--loads 3]
//     [--searches scalar,comparison] [--builds relaxed,simd,scalar] [--threads 1,2] [--network FILE]
//
// 1. For each search (`setoption name Search`), nodes per second on core's 46
//    bench positions, depth --depth (or --movetime ms each, reporting the
//    median depth reached), with the shipped network: the native engine
//    (`deepchess uci`) and the worker's relaxed-SIMD, SIMD128 and scalar builds in
//    chromium, through the same UCI flow (`ucinewgame`, `position fen …`,
//    `go …`). At a fixed depth the node counts must be equal: the same
//    search, wherever it runs. The page is cross-origin isolated, so the
//    relaxed and SIMD128 builds are the threaded ones (`_mt`); they run at
//    each --threads count (Lazy SMP), and at one thread their unthreaded
//    builds run too. With threads, nodes are every thread's.
// 2. Sizes: each .wasm after wasm-opt, the whole site, and what one visitor
//    downloads (every file but the builds, and the build it runs), raw and gzipped;
//    `--sizes` prints these alone, without a browser (after `make web`).
// 3. Time from navigation to the first `bestmove` (`go depth 1`) on a cold
//    browser profile, the median of --loads page loads.
//
// With --network weights/deepchess-<hash>.dcnn (a network the site lists, so
// that it is in nets/), that network plays instead of the embedded one:
// `--weights` natively, `EvalFile` in the worker.
//
// With --az weights/deepchess-<hash>.dcaz (the AlphaZero reimplementation's network), it
// measures MCTS playouts per second instead, and nothing else: --playouts
// (default 800) on the first --positions (default 12) bench positions, natively
// (`deepchess uci --weights`) and in each build's worker (the network loaded
// through `EvalFile` from the site's nets/), one leaf evaluated at a time. The
// playout counts are fixed, so the trees are the same everywhere. With
// --webgpu, then on WebGPU too (chromium's --enable-unsafe-webgpu adapter, the
// relaxed build with ?webgpu=1: 64 leaves per batch, spread by virtual loss,
// so its trees differ), on the first --webgpu-positions (default 2) positions.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { dist, start } from '../tests/browser.mjs';
import { benchFlow, browserBench, fens } from './flow.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const native = arg('--native', join(here, '..', '..', 'target', 'release', 'deepchess'));
const depth = Number(arg('--depth', 5));
const loads = Number(arg('--loads', 3));
const builds = arg('--builds', 'relaxed,simd,scalar').split(',');
// The comparison search needs a network with a comparison head (--network, the paper's).
const searches = arg('--searches', 'scalar').split(',');
const threadCounts = arg('--threads', '1,2').split(',').map(Number);
// With --movetime, each position is searched that long and the depth reached is reported.
const movetime = arg('--movetime', null);
const go = movetime ? `go movetime ${movetime}` : `go depth ${depth}`;
const networkFile = arg('--network', null);
async function nativeBench(search, threads, { positions = fens, command = go, args = networkFile ? ['--weights', networkFile] : [] } = {}) {
  const child = spawn(native, ['uci', ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => (await lines.next()).value;
  const send = (line) => child.stdin.write(`${line}\n`);
  const result = await benchFlow(positions, command, search, send, next, () => performance.now(), false, threads);
  send('quit');
  return result;
}

/** MCTS playouts per second with the AlphaZero network `file`, natively and in each build. */
async function azBench(file) {
  const playouts = Number(arg('--playouts', 800));
  const positions = fens.slice(0, Number(arg('--positions', 12)));
  const command = `go nodes ${playouts}`;
  console.log(`MCTS with ${file}: ${positions.length} bench positions, ${command}, one leaf at a time`);
  const nat = await nativeBench(null, null, { positions, command, args: ['--weights', file] });
  console.log(`mcts native: ${nat.nodes} playouts in ${nat.ms.toFixed(0)} ms, ${nat.nps} playouts/s`);
  const browser = await start();
  try {
    const page = await browser.page('/embed-example.html');
    const network = new URL(`nets/${basename(file)}`, page.url()).href;
    for (const build of builds) {
      const url = `engine/worker.js?build=${build}&threads=0&webgpu=0`;
      const r = await browserBench(page, { url, fens: positions, go: command, network });
      console.log(`mcts wasm ${build}: ${r.nodes} playouts in ${r.ms.toFixed(0)} ms, ${r.nps} playouts/s, ${(r.nps / nat.nps).toFixed(2)}× native`);
    }
  } finally {
    await browser.close();
  }
  if (process.argv.includes('--webgpu')) {
    const gpuBrowser = await start({ webgpu: true });
    try {
      const page = await gpuBrowser.page('/embed-example.html');
      const network = new URL(`nets/${basename(file)}`, page.url()).href;
      const url = 'engine/worker.js?build=relaxed&threads=0&webgpu=1';
      const few = positions.slice(0, Number(arg('--webgpu-positions', 2)));
      const r = await browserBench(page, { url, fens: few, go: command, network });
      console.log(`mcts webgpu (64 leaves per batch): ${r.nodes} playouts in ${r.ms.toFixed(0)} ms, ${r.nps} playouts/s`);
    } finally {
      await gpuBrowser.close();
    }
  }
}

function sizes() {
  const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  const files = walk(dist).map((f) => ({ name: relative(dist, f), raw: statSync(f).size, gz: gzipSync(readFileSync(f), { level: 9 }).length }));
  const sum = (list, key) => list.reduce((s, f) => s + f[key], 0);
  return { files, raw: sum(files, 'raw'), gz: sum(files, 'gz') };
}

function printSizes() {
  const s = sizes();
  for (const f of s.files.filter((f) => f.name.endsWith('.wasm'))) console.log(`${f.name}: ${kib(f.raw)}, ${kib(f.gz)} gzipped`);
  console.log(`site: ${s.files.length} files, ${kib(s.raw)}, ${kib(s.gz)} gzipped (all five builds)`);
  // What one visitor downloads: every file but the engine builds and the other
  // networks (fetched only when picked, as the service worker leaves them), and one build.
  const isBuild = (name) => /^engine\/deepchess_\w+(\.js|_bg\.wasm)$/.test(name);
  const isNetwork = (name) => /\.dc(nn|sn|az)$/.test(name);
  const common = s.files.filter((f) => !isBuild(f.name) && !isNetwork(f.name));
  for (const f of s.files.filter((f) => isNetwork(f.name))) console.log(`${f.name} (when picked): ${kib(f.raw)}, ${kib(f.gz)} gzipped`);
  for (const build of ['relaxed_mt', 'simd_mt', 'relaxed', 'simd', 'scalar']) {
    const own = [`engine/deepchess_${build}.js`, `engine/deepchess_${build}_bg.wasm`];
    const files = [...common, ...s.files.filter((f) => own.includes(f.name))];
    const sum = (key) => files.reduce((t, f) => t + f[key], 0);
    console.log(`a visitor on the ${build} build downloads ${files.length} files, ${kib(sum('raw'))}, ${kib(sum('gz'))} gzipped`);
  }
}

async function firstMove() {
  const times = [];
  for (let i = 0; i < loads; i++) {
    const browser = await start();
    try {
      const page = await browser.page('/');
      await page.waitForFunction(() => window.deepchess, null, { timeout: 30000 });
      times.push(
        await page.evaluate(async () => {
          await window.deepchess.engine.bestMove('position startpos', 'go depth 1');
          return performance.now();
        }),
      );
    } finally {
      await browser.close();
    }
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], all: times };
}

const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
// --sizes: the download sizes alone, no browser.
if (process.argv.includes('--sizes')) {
  printSizes();
  process.exit(0);
}
const az = arg('--az', null);
if (az) {
  await azBench(az);
  process.exit(0);
}
const shown = networkFile ?? `weights/${readFileSync(join(here, '..', '..', 'weights', 'DEFAULT'), 'utf8').trim()} (embedded)`;
console.log(`bench positions: ${fens.length}, ${go}, network ${shown}`);
const browser = await start();
try {
  const page = await browser.page('/embed-example.html');
  const network = networkFile && new URL(`nets/${basename(networkFile)}`, page.url()).href;
  for (const search of searches) {
    const nativeBy = {};
    const wasmBy = {};
    for (const threads of threadCounts) {
      // Only the scalar search has helpers.
      if (threads > 1 && search !== 'scalar') continue;
      const nat = await nativeBench(search, threads);
      nativeBy[threads] = nat;
      const t = `${threads} thread${threads > 1 ? 's' : ''}`;
      const vsOne = threads > 1 ? `, ${(nat.nps / nativeBy[1].nps).toFixed(2)}× one thread` : '';
      console.log(`${search} native, ${t}: ${nat.nodes} nodes in ${nat.ms.toFixed(0)} ms, ${nat.nps} nodes/s, median depth ${nat.depth}${vsOne}`);
      const runs = builds.filter((b) => threads === 1 || b !== 'scalar').map((b) => [b, b]);
      if (threads === 1) for (const b of builds.filter((b) => b !== 'scalar')) runs.push([`${b}&threads=0`, `${b} (unthreaded)`]);
      for (const [build, label] of runs) {
        const r = await browserBench(page, { url: `engine/worker.js?build=${build}&webgpu=0`, fens, go, search, threads, network });
        (wasmBy[label] ??= {})[threads] = r;
        // At a fixed depth and one thread the node counts must agree; at a fixed time they cannot.
        const same = movetime || threads > 1 ? '' : r.nodes === nat.nodes ? ', same nodes' : `, NODES DIFFER from native (${r.nodes})`;
        const scaling = threads > 1 && wasmBy[label][1] ? `, ${(r.nps / wasmBy[label][1].nps).toFixed(2)}× its one thread` : '';
        console.log(
          `${search} wasm ${label}, ${t}: ${r.nodes} nodes in ${r.ms.toFixed(0)} ms, ${r.nps} nodes/s, ` +
            `${(r.nps / nat.nps).toFixed(2)}× native${same}${scaling}, median depth ${r.depth}`,
        );
      }
    }
  }
} finally {
  await browser.close();
}
printSizes();
const first = await firstMove();
console.log(`first bestmove after navigation (cold profile): median ${first.median.toFixed(0)} ms of ${first.all.map((t) => t.toFixed(0)).join(', ')}`);
