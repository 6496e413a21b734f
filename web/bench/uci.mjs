#!/usr/bin/env node
// The site's engine as a UCI program, for matches: UCI on standard input, the engine's answers on
// standard output. By default the page's own engine plays: web/dist (`make web`) served with the
// cross-origin isolation headers, Debian's chromium headless, and in it the page's worker
// (web/engine/worker.js) with the build it picks there (the threaded relaxed-SIMD one in
// chromium) and its embedded network, every line passed through. Any UCI front end can play it,
// `deepchess match` among them:
//
//   deepchess match --ours "node web/bench/uci.mjs" --our-option Hash=128 --movetime 1000 \
//       --opponent-tc 10+0.1 --engine /usr/games/stockfish …
//
// Options: `--build relaxed|simd|scalar` forces a build (`?build=`); `--in node` runs the
// unthreaded module in this node process instead, driven as the worker drives it (slices of 1,024
// nodes, the input read between them), without a browser: the first build this node runs
// (relaxed SIMD needs node 22, web/node_modules/.bin/node, whose V8 searches slower than
// chromium's); `--dist DIR` (default web/dist). The end of the input is `quit`, as for Stockfish.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const BUILDS = ['relaxed', 'simd', 'scalar'];
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    build: { type: 'string' },
    in: { type: 'string', default: 'chromium' },
    dist: { type: 'string', default: join(root, 'dist') },
  },
});
const fail = (message) => {
  process.stderr.write(`uci.mjs: ${message}\n`);
  process.exit(2);
};
if (values.build !== undefined && !BUILDS.includes(values.build)) fail(`--build takes ${BUILDS.join(', ')}, not ${values.build}`);
if (!['chromium', 'node'].includes(values.in)) fail(`--in takes chromium or node, not ${values.in}`);

const print = (lines) => {
  if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
};
const engine = values.in === 'node' ? await inNode(values.build ? [values.build] : BUILDS) : await inChromium(values.build);
// Read only now: lines read before a listener is in place would be lost.
const input = createInterface({ input: process.stdin, terminal: false });
input.on('line', (line) => engine.send(line));
input.on('close', () => engine.send('quit'));

/** The first of `builds` that this node runs, in this process: `send(line)`, the worker's loop of slices. */
async function inNode(builds) {
  const SLICE_NODES = 1024;
  const SLICE_MS = 8;
  let glue;
  const refused = [];
  for (const build of builds) {
    const base = join(values.dist, 'engine', `deepchess_${build}`);
    try {
      const module = await import(pathToFileURL(`${base}.js`).href);
      await module.default({ module_or_path: readFileSync(`${base}_bg.wasm`) });
      glue = module;
      break;
    } catch (error) {
      // Node 20 does not validate relaxed SIMD: the next build.
      refused.push(`${build}: ${error.message}`);
    }
  }
  if (!glue) fail(`no build in ${values.dist} runs here (make web builds them): ${refused.join('; ')}`);
  const wasm = new glue.Engine();
  const queue = [];
  let scheduled = false;
  const pump = () => {
    while (queue.length) {
      const line = queue.shift();
      const lines = wasm.handle(line);
      print(/^\s*uci\s*$/.test(line) ? lines.map((l) => (l.startsWith('id name ') ? `${l} wasm-${wasm.kernel} (node)` : l)) : lines);
      if (wasm.quit) process.exit(0);
    }
    if (wasm.thinking && !scheduled) {
      scheduled = true;
      setImmediate(think);
    }
  };
  const think = () => {
    scheduled = false;
    const end = performance.now() + SLICE_MS;
    while (wasm.thinking && queue.length === 0 && performance.now() < end) print(wasm.think(SLICE_NODES));
    pump();
  };
  return {
    send(line) {
      queue.push(line);
      if (!scheduled) pump();
    },
  };
}

/** The page's worker in headless chromium: `send(line)` posts it, each answer is printed. */
async function inChromium(build) {
  // The browser tests' set-up: the site served with the isolation headers, chromium on a fresh profile.
  const { start } = await import('../tests/browser.mjs');
  const browser = await start({ root: values.dist });
  let closing = false;
  const close = async () => {
    closing = true;
    await browser.close().catch(() => {});
    process.exit(0);
  };
  // An empty page of the site's origin with the isolation headers: the worker, nothing else.
  await browser.context.route(`${browser.origin}/uci.html`, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
      body: '<!doctype html><meta charset="utf-8"><title>DeepChess UCI</title>',
    }),
  );
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.on('pageerror', (error) => process.stderr.write(`uci.mjs: page: ${error.message}\n`));
  // `isready` lines sent and `readyok` answers seen, so that `quit` can wait for its own.
  let asked = 0;
  let answered = 0;
  let onReady = null;
  await page.exposeFunction('uciAnswer', (line) => {
    if (closing) return;
    process.stdout.write(`${line}\n`);
    if (line === 'readyok' && ++answered >= asked) onReady?.();
  });
  await page.goto(`${browser.origin}/uci.html`);
  const url = `engine/worker.js${build ? `?build=${build}` : ''}`;
  await page.evaluate((url) => {
    window.engine = new Worker(new URL(url, document.baseURI), { type: 'module' });
    window.engine.onmessage = ({ data }) => String(data).split('\n').forEach((line) => window.uciAnswer(line));
    window.engine.onerror = (event) => window.uciAnswer(`info string error: ${event.message}`);
  }, url);
  // Lines go to the worker in order, one evaluate after the other.
  let chain = Promise.resolve();
  return {
    send(line) {
      chain = chain.then(async () => {
        if (closing) return;
        if (!/^\s*quit\s*$/.test(line)) {
          if (/^\s*isready\s*$/.test(line)) asked += 1;
          await page.evaluate((line) => window.engine.postMessage(line), line);
          return;
        }
        // Every answer out first, a search in hand stopped with its bestmove (at most a second).
        asked += 1;
        const ready = new Promise((resolve) => (onReady = resolve));
        await page.evaluate(() => ['stop', 'isready'].forEach((line) => window.engine.postMessage(line)));
        await Promise.race([ready, new Promise((resolve) => setTimeout(resolve, 1000))]);
        await close();
      });
    },
  };
}
