// Threads in the browser: Lazy SMP on helper workers over the threaded
// build's shared memory where the page is cross-origin isolated, one thread
// (and a word saying why) where it is not, and the service worker that adds
// the isolation headers a plain static host leaves out.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { parseUci } from 'chessops/util';
import { CORES, THREADS_HERE, closeChecked, openSite, start, uci, uciRuns } from './browser.mjs';

let browser;
let page;
before(async () => ({ browser, page } = await openSite('/embed-example.html')));
after(() => closeChecked(browser));

const FEN = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';

function assertLegal(fen, line) {
  const best = line.split(' ')[1];
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  assert.ok(pos.isLegal(parseUci(best)), `${line} is legal in ${fen}`);
}

test('with Threads 2 the helpers search too, and the move is legal', { skip: CORES < 2 && 'one core here: the engine offers one thread' }, async () => {
  assert.ok(await page.evaluate(() => self.crossOriginIsolated), 'make serve and the tests send COOP/COEP');
  // Searches in one worker, each after the first following `ucinewgame` (an
  // empty table, as a fresh worker's): the first starts the helper workers,
  // which may still be loading the module when a search this short ends, so
  // a later one, not a given one, must find them searching.
  const again = ['ucinewgame', `position fen ${FEN}`, 'go depth 9'];
  const [first, ...later] = await uciRuns(
    page,
    [['uci', 'setoption name Threads value 2', `position fen ${FEN}`, 'go depth 9'], ...Array(5).fill(again)],
    '^bestmove',
  );
  assert.match(first[0], /wasm-relaxed-mt$/);
  for (const lines of [first, ...later]) {
    assertLegal(FEN, lines.at(-1));
    assert.ok(!lines.some((l) => l.startsWith('info string error')), lines.join('\n'));
  }
  // One thread searches the same tree every time (the node-count test of
  // engine.test.mjs); `nodes` counts every thread's, as Stockfish does, and
  // helpers change the shared table, so with helpers the count differs.
  const single = await uci(page, ['uci', 'setoption name Threads value 1', `position fen ${FEN}`, 'go depth 9'], '^bestmove');
  const repeat = await uci(page, ['uci', 'setoption name Threads value 1', `position fen ${FEN}`, 'go depth 9'], '^bestmove');
  const nodes = (ls) => Number(ls.findLast((l) => l.startsWith('info depth 9 ') && l.includes(' pv ')).match(/ nodes (\d+)/)[1]);
  const threaded = later.map(nodes);
  console.log(`depth 9: ${nodes(single)} nodes with one thread, ${threaded.join(', ')} with two`);
  assert.equal(nodes(repeat), nodes(single), 'one thread is deterministic');
  assert.ok(threaded.some((n) => n !== nodes(single)), 'the helpers searched');
});

test('a threaded search answers stop promptly and survives ucinewgame during the search', async () => {
  const result = await page.evaluate(
    (fen) =>
      new Promise((resolve, reject) => {
        const worker = new Worker('engine/worker.js', { type: 'module' });
        const out = [];
        const times = {};
        let phase = 'first';
        setTimeout(() => reject(new Error(`timeout: ${out.slice(-5).join(' | ')}`)), 60000);
        worker.onmessage = ({ data }) => {
          out.push(data);
          if (data === 'uciok') {
            worker.postMessage('setoption name Threads value 2');
            worker.postMessage(`position fen ${fen}`);
            worker.postMessage('go infinite');
            // Mid-search: a new game, a new position and a new search.
            setTimeout(() => {
              worker.postMessage('ucinewgame');
              worker.postMessage('position startpos moves e2e4');
              worker.postMessage('go infinite');
              setTimeout(() => {
                phase = 'second';
                times.stop = performance.now();
                worker.postMessage('stop');
              }, 1500);
            }, 1000);
          }
          if (data.startsWith('bestmove') && phase === 'second') {
            times.latency = performance.now() - times.stop;
            worker.postMessage('isready');
          }
          if (data === 'readyok') {
            worker.terminate();
            resolve({ latency: times.latency, out });
          }
        };
        worker.postMessage('uci');
      }),
    FEN,
  );
  const bestmoves = result.out.filter((l) => l.startsWith('bestmove'));
  // ucinewgame ends the first search with its bestmove; stop ends the second.
  assert.equal(bestmoves.length, 2, bestmoves.join(' | '));
  assertLegal(FEN, bestmoves[0]);
  assertLegal('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', bestmoves[1]);
  assert.ok(!result.out.some((l) => l.startsWith('info string error')), result.out.join('\n'));
  console.log(`threads 2: stop answered in ${result.latency.toFixed(1)} ms`);
  assert.ok(result.latency < 500, `stop answered in ${result.latency} ms`);
});

test('without cross-origin isolation the worker runs one thread and says why', async () => {
  const plain = await start({ isolation: false });
  try {
    const p = await plain.page('/embed-example.html');
    assert.equal(await p.evaluate(() => self.crossOriginIsolated), false);
    const lines = await uci(p, ['uci', 'setoption name Threads value 2', 'position startpos', 'go depth 5'], '^bestmove');
    assert.match(lines[0], /wasm-relaxed$/);
    assert.ok(lines.includes('option name Threads type spin default 1 min 1 max 1'), lines.join('\n'));
    assert.ok(
      lines.includes('info string one thread: the page is not cross-origin isolated, so there is no shared memory for threads'),
      lines.join('\n'),
    );
    assert.match(lines.at(-1), /^bestmove [a-h][1-8][a-h][1-8]/);
    assert.deepEqual(plain.errors, []);
  } finally {
    await plain.close();
  }
});

test('on a host without the headers, the site says one thread, then the service worker makes it isolated', async () => {
  const plain = await start({ isolation: false });
  try {
    const p = await plain.page('/');
    // The plain status, then the engine's own words (its build, threads and network).
    const status = () => p.evaluate(() => `${document.querySelector('#engine-status')?.textContent} | ${document.querySelector('#engine-details')?.textContent}`);
    // Polls across the page's own reload.
    const eventually = async (check, what) => {
      for (let i = 0; i < 300; i++) {
        try {
          if (await check()) return;
        } catch {
          // The page is reloading.
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.fail(`timed out waiting for ${what}; status: ${await status().catch(() => '?')}`);
    };
    // The first visit, before the service worker controls the page: one thread.
    // (The service worker may already have taken over and reloaded the page.)
    // One evaluation reads all three, so they come from the same page; if the reload destroys
    // the page meanwhile, the first visit has passed unseen.
    let first = null;
    try {
      first = await p.evaluate(() => ({
        text: document.querySelector('#engine-status')?.textContent ?? '',
        details: document.querySelector('#engine-details')?.textContent ?? '',
        isolated: self.crossOriginIsolated,
        disabled: document.querySelector('#threads')?.disabled,
      }));
    } catch (e) {
      if (!/Execution context was destroyed|navigat/i.test(String(e?.message))) throw e;
    }
    if (first && first.text.startsWith('Ready') && !first.isolated) {
      assert.equal(first.text, 'Ready · 1 thread');
      assert.match(first.details, / · one thread: the page is not cross-origin isolated, so there is no shared memory for threads · /);
      assert.equal(first.disabled, true);
    }
    // Once it controls the page, the page reloads once and is isolated.
    await eventually(() => p.evaluate(() => self.crossOriginIsolated && document.querySelector('#engine-status').textContent.startsWith('Ready')), 'isolation');
    const isolated = await status();
    assert.match(isolated, /^Ready · \d+ threads? \| DeepChess \S+, WebAssembly with relaxed SIMD and threads · (up to \d+ threads|one thread) here · network /);
    assert.ok(isolated.includes(` · ${THREADS_HERE} · `), isolated);
    const options = await p.evaluate(() => [...document.querySelectorAll('#threads option')].map((o) => o.value));
    assert.ok(options.length >= 2 || (await p.evaluate(() => navigator.hardwareConcurrency)) === 1, options.join(' '));
    // The site plays with two threads.
    await p.evaluate(() => window.deepchess.engine.send('setoption name Threads value 2'));
    const { move } = await p.evaluate(() => window.deepchess.engine.bestMove('position startpos moves e2e4', 'go depth 6'));
    assert.match(move, /^[a-h][1-8][a-h][1-8]$/);
    assert.deepEqual(plain.errors, []);
  } finally {
    await plain.close();
  }
});
