// The engine worker over plain UCI, as a page that drives stockfish.js uses it.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Chess } from 'chessops/chess';
import { parseUci } from 'chessops/util';
import { CORES, closeChecked, dist, openSite, uci } from './browser.mjs';

let browser;
let page;
before(async () => ({ browser, page } = await openSite('/embed-example.html')));
after(() => closeChecked(browser));

// The paper's comparison network, listed for the site: the comparison search
// plays it (the built-in network is a value network, for the scalar search).
const PAPER = JSON.parse(readFileSync(join(dist, '..', '..', 'weights', 'learners.json'), 'utf8')).find((n) =>
  n.file.endsWith('.dcnn'),
).file;

/** The UCI lines that give `search` a network it plays. */
function networkFor(search) {
  return search === 'comparison' ? [`setoption name EvalFile value /nets/${PAPER}`] : [];
}

function assertLegalAfterE4(lines) {
  const best = lines.at(-1).split(' ')[1];
  const pos = Chess.default();
  pos.play(parseUci('e2e4'));
  assert.ok(pos.isLegal(parseUci(best)), `bestmove ${best} is legal after 1. e4`);
}

test('uci, isready and go depth 6 give uciok, readyok and a legal bestmove (threaded relaxed-SIMD build, chromium\'s pick)', async () => {
  const lines = await uci(page, ['uci', 'isready', 'position startpos moves e2e4', 'go depth 6'], '^bestmove');
  assert.ok(lines.includes('uciok') && lines.includes('readyok'));
  assert.match(lines[0], /^id name DeepChess .* wasm-relaxed-mt$/);
  assert.ok(lines.includes(`option name Threads type spin default 1 min 1 max ${CORES}`), lines.join('\n'));
  assert.ok(lines.some((l) => /^info depth 6 .* nodes \d+ .* time \d+ pv /.test(l)), 'an info line for depth 6');
  // The built-in value network and the searches it plays, named in the answer to `uci`.
  assert.ok(lines.slice(0, lines.indexOf('uciok')).some((l) => /^info string network <embedded>: 773-\d.* \(plays scalar, mcts\)$/.test(l)), lines.join('\n'));
  assertLegalAfterE4(lines);
});

test('go perft counts the move paths under each first move, as Stockfish prints them', async () => {
  const lines = await uci(page, ['position startpos moves e2e4', 'go perft 3'], '^Nodes searched');
  assert.equal(lines.at(-1), 'Nodes searched: 13160');
  assert.equal(lines.at(-2), '');
  const moves = lines.slice(0, -2);
  assert.equal(moves.length, 20, lines.join('\n'));
  assert.equal(moves.reduce((sum, l) => sum + Number(l.split(': ')[1]), 0), 13160);
});

test('the SIMD128 and scalar fallback builds play too, and every build searches the same tree, threaded or not', async () => {
  const nodes = {};
  const builds = [
    ['relaxed', 'relaxed-mt'],
    ['simd', 'simd128-mt'],
    ['scalar', 'scalar'],
    ['relaxed&threads=0', 'relaxed'],
    ['simd&threads=0', 'simd128'],
  ];
  for (const [build, kernel] of builds) {
    for (const search of ['scalar', 'comparison']) {
      const lines = await uci(
        page,
        ['uci', ...networkFor(search), `setoption name Search value ${search}`, 'position startpos moves e2e4', 'go depth 5'],
        '^bestmove',
        `engine/worker.js?build=${build}&webgpu=0`,
      );
      assert.match(lines[0], new RegExp(`wasm-${kernel}$`));
      assertLegalAfterE4(lines);
      const info = lines.findLast((l) => /^info depth 5 .* pv /.test(l));
      (nodes[search] ??= {})[build] = [Number(info.match(/ nodes (\d+)/)[1]), lines.at(-1)];
    }
  }
  for (const search of ['scalar', 'comparison']) {
    for (const [build] of builds) assert.deepEqual(nodes[search][build], nodes[search].scalar, `${search} search: ${build} against scalar`);
  }
});

test('in chromium, the relaxed-SIMD and SIMD128 kernels equal the scalar oracle bit for bit, threaded build too', async () => {
  // The raw kernel builds of `make wasm-bench-builds`, as node runs them.
  const builds = [
    ['simd128', 'simd128', process.env.DEEPCHESS_WASM_SIMD],
    ['relaxed', 'relaxed', process.env.DEEPCHESS_WASM_RELAXED],
    ['relaxed_mt', 'relaxed', process.env.DEEPCHESS_WASM_RELAXED_MT],
  ];
  for (const [name, kernel, path] of builds) {
    assert.ok(path && existsSync(path), `${name}: DEEPCHESS_WASM_* names a built module (make wasm-bench-builds)`);
    const result = await page.evaluate(async (bytes) => {
      const module = await WebAssembly.compile(new Uint8Array(bytes));
      // A threaded build imports its shared memory (the page is cross-origin isolated).
      const wantsMemory = WebAssembly.Module.imports(module).some((i) => i.kind === 'memory');
      const memory = () => new WebAssembly.Memory({ initial: 256, maximum: 65536, shared: true });
      const instance = await WebAssembly.instantiate(module, wantsMemory ? { env: { memory: memory() } } : {});
      const kernel = ['scalar', 'avx2', 'simd128', 'relaxed'][instance.exports.dc_kernel()];
      return { kernel, failures: [1, 2, 3].map((seed) => instance.exports.dc_selftest(500, seed)) };
    }, [...readFileSync(path)]);
    assert.deepEqual(result, { kernel, failures: [0, 0, 0] }, name);
  }
});

for (const search of ['scalar', 'comparison']) {
  test(`Search ${search}: go depth 5 reports score cp and plays a legal move`, async () => {
    const lines = await uci(
      page,
      ['uci', ...networkFor(search), `setoption name Search value ${search}`, 'position startpos moves e2e4', 'go depth 5'],
      '^bestmove',
    );
    assert.ok(lines.includes('option name Search type combo default scalar var scalar var comparison'));
    assert.ok(!lines.some((l) => l.startsWith('info string error')), lines.join('\n'));
    assert.ok(lines.some((l) => /^info depth 5 .* score cp -?\d+ .* pv /.test(l)), 'an info line with a score');
    assertLegalAfterE4(lines);
  });
}

for (const search of ['scalar', 'comparison']) test(`Search ${search}: stop during go infinite is answered promptly, and isready too`, async () => {
  const result = await page.evaluate(
    ([search, setup]) =>
      new Promise((resolve) => {
        const worker = new Worker('engine/worker.js', { type: 'module' });
        const times = {};
        let infos = 0;
        worker.onmessage = ({ data }) => {
          if (data === 'uciok') {
            for (const line of setup) worker.postMessage(line);
            worker.postMessage(`setoption name Search value ${search}`);
            worker.postMessage('go infinite');
          }
          if (data.startsWith('info depth') && ++infos === 3) {
            // Searching for a while: ask if ready, then stop.
            setTimeout(() => {
              times.ready = performance.now();
              worker.postMessage('isready');
            }, 300);
          }
          if (data === 'readyok') {
            times.readyLatency = performance.now() - times.ready;
            times.stop = performance.now();
            worker.postMessage('stop');
          }
          if (data.startsWith('bestmove')) {
            worker.terminate();
            resolve({ ready: times.readyLatency, stop: performance.now() - times.stop, bestmove: data });
          }
        };
        worker.postMessage('uci');
      }),
    [search, networkFor(search)],
  );
  console.log(`${search}: latency during go infinite: isready ${result.ready.toFixed(1)} ms, stop ${result.stop.toFixed(1)} ms`);
  assert.match(result.bestmove, /^bestmove [a-h][1-8][a-h][1-8]/);
  // The target is 50 ms; the bound is generous for a loaded CI machine.
  assert.ok(result.stop < 500, `stop answered in ${result.stop} ms`);
  assert.ok(result.ready < 500, `isready answered in ${result.ready} ms`);
});

test('bad input gets an info string error, and the engine goes on', async () => {
  const lines = await uci(
    page,
    ['position fen not/a/fen w - - 0 1', 'position startpos moves e2e5', 'setoption name Hash value lots', 'go depth 2'],
    '^bestmove',
  );
  assert.equal(lines.filter((l) => l.startsWith('info string error')).length, 3, lines.join('\n'));
  assert.match(lines.at(-1), /^bestmove [a-h][1-8][a-h][1-8]$/);
});

test('EvalFile loads a network by URL and reports a missing one', async () => {
  const lines = await uci(
    page,
    ['setoption name EvalFile value missing.dcnn', 'setoption name EvalFile value <embedded>', 'go depth 1'],
    '^bestmove',
  );
  assert.match(lines[0], /^info string error: cannot load network missing.dcnn: HTTP 404/);
  assert.match(lines[1], /^info string loaded network deepchess-[0-9a-f]+\.dcnn/);
});

test('a network whose content does not match the hash in its name is refused', async () => {
  const wrong = 'deepchess-000000000000.dcnn';
  mkdirSync(join(dist, 'test-nets'), { recursive: true });
  copyFileSync(join(dist, '..', '..', 'weights', 'deepchess-d535640278a8.dcnn'), join(dist, 'test-nets', wrong));
  try {
    const lines = await uci(page, [`setoption name EvalFile value /test-nets/${wrong}`, 'go depth 1'], '^bestmove');
    assert.match(lines[0], /^info string error: cannot load network \/test-nets\/deepchess-000000000000\.dcnn: the file's sha256 begins d535640278a8, not 000000000000/);
  } finally {
    rmSync(join(dist, 'test-nets'), { recursive: true, force: true });
  }
});

test('the documented module API: createEngine, send, onLine, bestMove', async () => {
  const result = await page.evaluate(async () => {
    const { createEngine } = await import('./deepchess.js');
    const engine = await createEngine();
    const seen = [];
    engine.onLine((line) => seen.push(line));
    await engine.ready();
    const { move, info } = await engine.bestMove('position startpos', 'go depth 4');
    engine.terminate();
    return { move, info, seen: seen.length, id: engine.id[0] };
  });
  assert.match(result.move, /^[a-h][1-8][a-h][1-8]$/);
  assert.match(result.info, /^info depth 4 /);
  assert.ok(result.seen >= 3);
  assert.match(result.id, /^id name DeepChess/);
});

test("the module API takes a network URL: a learner's network plays (the AlphaZero one through MCTS), a missing one is an error", async () => {
  const learners = JSON.parse(readFileSync(join(dist, '..', '..', 'weights', 'learners.json'), 'utf8'));
  assert.ok(learners.length >= 1, 'weights/learners.json lists the learners the site ships');
  for (const net of learners) {
    const mcts = net.file.endsWith('.dcaz');
    const result = await page.evaluate(
      async ([file, go]) => {
        const { createEngine } = await import('./deepchess.js');
        const engine = await createEngine({ network: `nets/${file}` });
        const { move, info } = await engine.bestMove('position startpos moves e2e4', go);
        engine.terminate();
        return { move, info };
      },
      [net.file, mcts ? 'go nodes 200' : 'go depth 3'],
    );
    assert.match(result.move, /^[a-h][1-8][a-h][1-8]$/, net.file);
    assert.match(result.info, mcts ? /^info depth \d+ .* score cp -?\d+ nodes 200 / : /^info depth 3 .* score cp -?\d+ /, net.file);
  }
  const error = await page.evaluate(async () => {
    const { createEngine } = await import('./deepchess.js');
    return createEngine({ network: 'nets/missing.dcsn' }).then(
      () => 'no error',
      (e) => e.message,
    );
  });
  assert.match(error, /^cannot load network .*nets\/missing\.dcsn: HTTP 404/);
});

test('the embedding example analyses through the plain UCI flow', async () => {
  await page.waitForFunction(() => document.querySelectorAll('#pv-lines li').length === 2, null, { timeout: 60000 });
  await page.waitForSelector('#board svg line, #board svg path', { state: 'attached' });
  const log = await page.textContent('#log');
  for (const line of ['> uci', '< uciok', '> setoption name MultiPV value 2', '> isready', '< readyok', '> go depth 12']) {
    assert.ok(log.includes(line), `traffic includes ${line}`);
  }
});

test("the embedding example and the module API play the comparison search with the paper's network", async () => {
  const example = await browser.page(`/embed-example.html?network=/nets/${PAPER}&search=comparison`);
  await example.waitForFunction(() => document.querySelectorAll('#pv-lines li').length === 2, null, { timeout: 60000 });
  const log = await example.textContent('#log');
  assert.ok(log.includes(`> setoption name EvalFile value /nets/${PAPER}`), 'the network is sent');
  assert.ok(log.includes('> setoption name Search value comparison'), 'the option is sent');
  assert.ok(log.includes('(plays scalar, comparison, mcts)'), log);
  assert.ok(!log.includes('info string error'), log);
  const result = await example.evaluate(async (file) => {
    const { createEngine } = await import('./deepchess.js');
    const engine = await createEngine({ network: `nets/${file}` });
    await engine.ready();
    engine.send('setoption name Search value comparison');
    const { move, info } = await engine.bestMove('position startpos', 'go depth 4');
    engine.terminate();
    return { move, info };
  }, PAPER);
  assert.match(result.move, /^[a-h][1-8][a-h][1-8]$/);
  assert.match(result.info, /^info depth 4 .* score cp -?\d+ /);
  await example.close();
});

for (const [width, height] of [
  [1280, 800],
  [390, 844],
]) {
  test(`the embedding example fits ${width} px: its UCI log wraps instead of widening the page`, async () => {
    const example = await browser.page('/embed-example.html');
    try {
      await example.setViewportSize({ width, height });
      // The log holds the engine's long lines (its options, its info lines).
      await example.waitForFunction(() => /bestmove/.test(document.querySelector('#log').textContent), null, { timeout: 30000 });
      const [scroll, client] = await example.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      assert.ok(scroll <= client, `the page is ${scroll} px wide at ${client}`);
    } finally {
      await example.close();
    }
  });
}

test('MCTS with the AlphaZero network keeps to go movetime 300 (plus the move overhead)', async () => {
  const learners = JSON.parse(readFileSync(join(dist, 'nets', 'networks.json'), 'utf8'));
  const az = learners.find((n) => n.file.endsWith('.dcaz') && /supervised/.test(n.name)) ?? learners.find((n) => n.file.endsWith('.dcaz'));
  // Its own page: the tests above close the file's shared one.
  const own = await browser.page('/embed-example.html');
  const times = await own.evaluate(
    (file) =>
      new Promise((resolve, reject) => {
        const worker = new Worker(new URL('engine/worker.js?webgpu=0', document.baseURI), { type: 'module' });
        const positions = ['position startpos', 'position startpos moves e2e4 e7e5', 'position startpos moves d2d4 d7d5 c2c4'];
        const times = [];
        let started = 0;
        const timer = setTimeout(() => reject(new Error(`timeout after ${times}`)), 60000);
        const next = () => {
          worker.postMessage(positions[times.length]);
          started = performance.now();
          worker.postMessage('go movetime 300');
        };
        worker.onmessage = ({ data }) => {
          if (data === 'readyok') next();
          else if (data.startsWith('bestmove')) {
            times.push(performance.now() - started);
            if (times.length === positions.length) {
              clearTimeout(timer);
              worker.terminate();
              resolve(times);
            } else next();
          }
        };
        for (const line of ['uci', `setoption name EvalFile value /nets/${file}`, 'isready']) worker.postMessage(line);
      }),
    az.file,
  );
  await own.close();
  console.log(`MCTS, go movetime 300: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
  // The move overhead (30 ms) is for the pipe to a GUI; a worker's own answer stays within it.
  for (const t of times) assert.ok(t <= 330, `go movetime 300 answered after ${t.toFixed(0)} ms`);
});
