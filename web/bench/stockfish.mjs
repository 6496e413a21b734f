// Side by side in one chromium: our engine worker against stockfish.js, the
// engine lichess and chess.com pages run, in its lite single-threaded build
// (npm `stockfish`, pinned in web/bench/package.json). `make bench-web`, or
//   (cd web/bench && npm ci) && node web/bench/stockfish.mjs [--movetime 500] [--loads 3] [--builds relaxed,simd]
//
// 1. The same positions (core's 46 bench positions), the same time each
//    (`go movetime`), one after the other in the same browser: nodes/s and the
//    median depth reached, as each engine reports them. Nodes are not the
//    same unit: a Stockfish node is a full NNUE evaluation of a position with
//    its move generation, ours a DeepChess evaluation; the table reports both
//    as each engine counts them.
// 2. Time to the first `bestmove` (`go depth 1`) after the worker is created,
//    on a cold browser profile: download, compile and start-up, the median of
//    --loads.
// 3. Transfer size of what each engine needs (worker script, glue and wasm),
//    raw and gzipped.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { dist, start } from '../tests/browser.mjs';
import { browserBench, fens } from './flow.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const movetime = Number(arg('--movetime', 500));
const loads = Number(arg('--loads', 3));
const builds = arg('--builds', 'relaxed,simd').split(',');
const stockfishDir = join(here, 'node_modules', 'stockfish', 'bin');
const SF = 'stockfish-19-lite-single';
try {
  statSync(join(stockfishDir, `${SF}.wasm`));
} catch {
  console.error(`missing ${join(stockfishDir, `${SF}.wasm`)}: run \`(cd web/bench && npm ci)\` (make bench-web does)`);
  process.exit(1);
}

// One origin serves both: the built site, stockfish.js under /stockfish/, and
// an empty page to start workers from.
const root = mkdtempSync(join(tmpdir(), 'deepchess-bench-'));
for (const entry of readdirSync(dist)) symlinkSync(join(dist, entry), join(root, entry));
symlinkSync(stockfishDir, join(root, 'stockfish'));
writeFileSync(join(root, 'blank.html'), '<!doctype html><title>bench</title>');

const engines = [
  ...builds.map((build) => ({
    name: `DeepChess wasm ${build}`,
    url: `engine/worker.js?build=${build}&webgpu=0`,
    type: 'module',
    files: ['engine/worker.js', `engine/deepchess_${build}.js`, `engine/deepchess_${build}_bg.wasm`],
  })),
  {
    name: 'stockfish.js 19 lite single',
    url: `stockfish/${SF}.js`,
    type: 'classic',
    files: [`stockfish/${SF}.js`, `stockfish/${SF}.wasm`],
  },
];

/** Runs in the page: worker creation to the first `bestmove` of `go depth 1`. */
function firstMoveFlow({ url, type }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const worker = new Worker(url, { type });
    worker.onmessage = ({ data }) => {
      for (const line of String(data).split('\n')) {
        if (line === 'uciok') {
          worker.postMessage('position startpos');
          worker.postMessage('go depth 1');
        }
        if (line.startsWith('bestmove')) {
          worker.terminate();
          resolve(performance.now() - started);
        }
      }
    };
    worker.postMessage('uci');
  });
}

const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
try {
  console.log(`${fens.length} bench positions, go movetime ${movetime} each, one engine at a time, one chromium`);
  const browser = await start({ root });
  try {
    const page = await browser.page('/blank.html');
    for (const engine of engines) {
      const r = await browserBench(page, { url: engine.url, type: engine.type, fens, go: `go movetime ${movetime}`, ready: true });
      engine.speed = r;
      console.log(`${engine.name.padEnd(28)}: ${r.nodes} nodes in ${r.ms.toFixed(0)} ms, ${r.nps} nodes/s, median depth ${r.depth}`);
    }
  } finally {
    await browser.close();
  }
  for (const engine of engines) {
    const times = [];
    for (let i = 0; i < loads; i++) {
      const browser = await start({ root });
      try {
        const page = await browser.page('/blank.html');
        times.push(await page.evaluate(firstMoveFlow, { url: engine.url, type: engine.type }));
      } finally {
        await browser.close();
      }
    }
    times.sort((a, b) => a - b);
    const bytes = engine.files.map((f) => readFileSync(join(root, f.split('?')[0])));
    const raw = bytes.reduce((s, b) => s + b.length, 0);
    const gz = bytes.reduce((s, b) => s + gzipSync(b, { level: 9 }).length, 0);
    console.log(
      `${engine.name.padEnd(28)}: first bestmove ${times[times.length >> 1].toFixed(0)} ms after the worker starts ` +
        `(median of ${times.map((t) => t.toFixed(0)).join(', ')}; cold profile), transfer ${kib(raw)}, ${kib(gz)} gzipped`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
