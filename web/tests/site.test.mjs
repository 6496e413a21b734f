// The site: play, analyse, watch, FEN and PGN, phones, offline.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { THREADS_HERE, clickSquare as clickBoard, closeChecked, dist, openSite, shots, uci } from './browser.mjs';

let browser;
let page;
before(async () => {
  ({ browser, page } = await openSite('/'));
  await page.waitForFunction(() => document.querySelector('#engine-status').textContent.startsWith('Ready'));
});
after(() => closeChecked(browser));

/** Clicks a square (`e2`) of the board, seen from White's side. */
async function clickSquare(square) {
  // The move list scrolls its current move into view, which may scroll the page.
  await page.locator('#board').scrollIntoViewIfNeeded();
  await clickBoard(page, square);
}

const moveCount = () => page.locator('#moves .move').count();
const moveTexts = () => page.locator('#moves .move').allTextContents();

test('the page loads with the board, the engine and no errors', async () => {
  assert.equal(await page.title(), 'DeepChess');
  // A plain status; the engine's build, threads and network a tap away.
  assert.match(await page.textContent('#engine-status'), /^Ready · \d threads?$/);
  assert.ok(await page.locator('#engine-details').isHidden());
  await page.click('#engine-status');
  const details = await page.textContent('#engine-details');
  assert.match(
    details,
    /^DeepChess \S+, WebAssembly with (relaxed SIMD|SIMD|no SIMD)( and threads)? · (up to \d+ threads|one thread) here · network built in: 773-\S+ \+ utility \S+(, first layer screlu)? · plays alpha-beta, MCTS$/,
  );
  assert.ok(details.includes(` · ${THREADS_HERE} · `), details);
  await page.click('#engine-status');
  assert.ok(await page.locator('#engine-details').isHidden());
  assert.equal(await page.locator('#board piece:not(.ghost)').count(), 32);
  assert.match(await page.textContent('#status'), /Your move/);
});

test('a move made on the board gets a reply', async () => {
  await page.selectOption('#strength', 'go depth 3');
  await clickSquare('e2');
  await clickSquare('e4');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 2, null, { timeout: 30000 });
  const [first, reply] = await moveTexts();
  assert.equal(first, 'e4');
  assert.match(reply, /^([NBRQK]?[a-h]?[1-8]?x?[a-h][1-8]|O-O(-O)?)[+#]?$/);
  assert.match(await page.textContent('#status'), /Your move/);
  await page.screenshot({ path: join(shots, 'play.png') });
});

test('an illegal move is refused and take back returns to the player', async () => {
  await clickSquare('e1');
  await clickSquare('e5');
  assert.equal(await moveCount(), 2);
  await page.click('#take-back');
  assert.equal(await moveCount(), 0);
  assert.equal(await page.locator('#board piece:not(.ghost)').count(), 32);
});

test('analyse shows the engine line, the eval bar and the best move arrow', async () => {
  await page.click('nav button[data-mode=analyse]');
  await page.waitForFunction(() => document.querySelectorAll('#pv-lines li').length === 3, null, { timeout: 30000 });
  await page.waitForFunction(() => /depth ([2-9]|\d\d)/.test(document.querySelector('#analysis-stats').textContent));
  assert.match(await page.textContent('#analysis-stats'), /nodes\/s/);
  // The bar's label is short (one decimal), the best line's score large above the lines.
  assert.match(await page.textContent('#eval-text'), /^[+-]?\d\.\d$|^[+-]?\d\d+$|^#-?\d+$/);
  assert.match(await page.textContent('#analysis-score'), /^[+-]?\d+\.\d\d$|^#-?\d+$/);
  assert.ok((await page.locator('#board svg g').count()) >= 1, 'arrows are drawn');
  const first = await page.textContent('#pv-lines li');
  assert.match(first, /^[+-]?\d+\.\d\d d\d+ 1\. /);
  await page.screenshot({ path: join(shots, 'analyse.png') });
});

test('a PGN loads, steps through and copies out; a FEN loads and a bad one is refused', async () => {
  await page.click('#io summary');
  const pgn = '[Event "Test"]\n[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {Ruy Lopez} 4. Ba4 Nf6 1-0';
  await page.fill('#pgn', pgn);
  await page.click('#load-pgn');
  assert.deepEqual(await moveTexts(), ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6']);
  // It opens at its last move, as on lichess, and names its opening.
  assert.equal(await page.textContent('#moves .current'), 'Nf6');
  assert.equal(await page.textContent('#opening'), 'C70 Ruy Lopez: Morphy Defense');
  await page.click('#first');
  await page.click('#last');
  assert.equal(await page.inputValue('#fen'), 'r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 5');
  await page.click('#prev');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.textContent('#moves .current'), 'a6');
  await page.click('#copy-pgn');
  const out = await page.inputValue('#pgn');
  assert.match(out, /\[White "A"\]/);
  assert.match(out, /1\. e4 e5 2\. Nf3 Nc6 3\. Bb5 a6 \{ Ruy Lopez \} 4\. Ba4 Nf6/, 'the comment is kept');

  await page.fill('#pgn', '1. e4 e5 2. Ke3');
  await page.click('#load-pgn');
  assert.match(await page.textContent('#io-error'), /illegal move 2\. Ke3/);

  await page.fill('#fen', '8/8/8/8/8/8/8/8 w - - 0 1');
  await page.click('#load-fen');
  assert.equal(await page.textContent('#io-error'), 'Illegal position: the board is empty.');
  await page.fill('#fen', '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1');
  await page.click('#load-fen');
  assert.equal(await page.textContent('#io-error'), '');
  await page.waitForFunction(() => document.querySelector('#pv-lines li')?.textContent.includes('Ra8#'), null, { timeout: 30000 });
  assert.match(await page.textContent('#pv-lines li'), /^#1 d\d+ 1\. Ra8#/);
});

test('analysis lines show their depth up front; a hovered move shows its position, a clicked one plays the line; show threat', async () => {
  await page.evaluate(() => (document.querySelector('#io').open = true));
  await page.fill('#fen', '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1');
  await page.click('#load-fen');
  await page.waitForFunction(() => document.querySelector('#pv-lines li .pv-move')?.textContent === '1. Ra8#', null, { timeout: 30000 });
  assert.match(await page.textContent('#pv-lines li'), /^#1 d\d+ 1\. Ra8#/);
  assert.equal(await page.textContent('#analysis-score'), '#1');
  assert.equal(await page.textContent('#eval-text'), '#1');
  await page.hover('#pv-lines li .pv-move');
  assert.ok(await page.locator('#pv-preview').isVisible(), 'a hovered move shows its position');
  assert.equal(await page.locator('#pv-preview piece:not(.ghost)').count(), 6);
  await page.screenshot({ path: join(shots, 'analysis-lines.png') });
  await page.click('#pv-lines li .pv-move');
  assert.equal(await page.textContent('#moves .current'), 'Ra8#');
  assert.ok(await page.locator('#pv-preview').isHidden());
  // Black threatens mate on the back rank: the threat is its best move had it the turn.
  await page.fill('#fen', 'r5k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1');
  await page.click('#load-fen');
  await page.keyboard.press('x');
  assert.ok(await page.isChecked('#threat'));
  await page.waitForFunction(() => document.querySelector('#pv-lines li .pv-move')?.textContent === '1… Ra1#', null, { timeout: 30000 });
  assert.match(await page.textContent('#analysis-stats'), /^threat · depth /);
  assert.equal(await page.inputValue('#fen'), 'r5k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1', 'the position stays');
  await page.click('#threat');
  await page.waitForFunction(() => /^1\. /.test(document.querySelector('#pv-lines li .pv-move')?.textContent ?? ''), null, { timeout: 30000 });
});

test('a review draws the evaluation over the game, marks the blunder, and a click on the graph goes to a move', async () => {
  await page.fill('#pgn', '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0');
  await page.click('#load-pgn');
  assert.ok(await page.locator('#graph').isHidden(), 'no graph before a review');
  await page.click('#review-game');
  await page.waitForFunction(() => document.querySelector('#review-progress').textContent === 'reviewed', null, { timeout: 60000 });
  // 3... Nf6 allows mate in one: every chance Black had is gone.
  // (0.2 s a position: how deep that reaches depends on the machine, and the
  // engine may frown at 2. Qh5 too, with ? or ?! but never ??.)
  const judged = await moveTexts();
  const lesser = (m) => (m.endsWith('??') ? m : m.replace(/\?!?$/, ''));
  assert.deepEqual(judged.map(lesser), ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6??', 'Qxf7#']);
  assert.equal(await page.locator('#moves .move.blunder').count(), 1);
  assert.ok(await page.locator('#graph').isVisible());
  assert.equal(await page.locator('#graph circle.blunder').count(), 1);
  const box = await page.locator('#graph').boundingBox();
  await page.mouse.click(box.x + box.width - 1, box.y + box.height / 2);
  assert.equal(await page.textContent('#moves .current'), 'Qxf7#');
  await page.mouse.click(box.x + (box.width * 6) / 7, box.y + box.height / 2);
  assert.equal(await page.textContent('#moves .current'), judged[5]);
  // The analysis view with its lines and the graph (the README's screenshot).
  await page.waitForFunction(() => document.querySelectorAll('#pv-lines li').length === 3, null, { timeout: 30000 });
  await page.waitForFunction(() => /depth (1\d|[2-9]\d)/.test(document.querySelector('#analysis-stats').textContent), null, { timeout: 30000 });
  await page.screenshot({ path: join(shots, 'review.png') });
  // The judgement goes out with the PGN as a NAG.
  await page.click('#copy-pgn');
  assert.match(await page.inputValue('#pgn'), /3\. Bc4 Nf6 \$4 4\. Qxf7# 1-0/);
});

test('the promotion chooser stands over the promotion square; Escape or a click beside it takes the move back', async () => {
  await page.fill('#fen', '7k/4P3/8/8/8/8/8/K7 w - - 0 1');
  await page.click('#load-fen');
  const pieceOn = (square) => page.evaluate((sq) => [...document.querySelectorAll('#board piece')].find((p) => p.cgKey === sq && !p.classList.contains('ghost'))?.className ?? null, square);
  const promote = async () => {
    await clickSquare('e7');
    await clickSquare('e8');
    await page.waitForSelector('#promotion:not([hidden])');
  };
  await promote();
  // A column of four over e8 to e5, queen first, in White's pieces.
  const board = await page.locator('#board cg-board').boundingBox();
  const column = await page.locator('#promotion .choices').boundingBox();
  const square = board.width / 8;
  assert.ok(Math.abs(column.x - (board.x + 4 * square)) < 2 && Math.abs(column.y - board.y) < 2, JSON.stringify({ board, column }));
  assert.ok(Math.abs(column.width - square) < 2 && Math.abs(column.height - 4 * square) < 2, JSON.stringify({ board, column }));
  assert.deepEqual(await page.$$eval('#promotion piece', (pieces) => pieces.map((p) => p.className)), ['queen white', 'knight white', 'rook white', 'bishop white']);
  await page.screenshot({ path: join(shots, 'promotion.png') });
  await page.keyboard.press('Escape');
  assert.ok(await page.locator('#promotion').isHidden());
  await page.waitForFunction(() => [...document.querySelectorAll('#board piece')].some((p) => p.cgKey === 'e7'));
  assert.match(await pieceOn('e7'), /^white pawn/, 'the pawn is back');
  assert.equal(await page.inputValue('#fen'), '7k/4P3/8/8/8/8/8/K7 w - - 0 1');
  // A click on the dimmed board beside the pieces cancels too.
  await promote();
  await page.mouse.click(board.x + square / 2, board.y + square / 2);
  assert.ok(await page.locator('#promotion').isHidden());
  assert.equal(await page.inputValue('#fen'), '7k/4P3/8/8/8/8/8/K7 w - - 0 1');
  // And a piece promotes.
  await promote();
  await page.click('#promotion button[data-role=n]');
  assert.equal(await page.textContent('#moves .current'), 'e8=N');
});

test('a move in the middle of a loaded game starts a side line, which can be promoted and deleted', async () => {
  await page.fill('#pgn', '1. e4 e5 2. Nf3 Nc6 (2... d6 3. d4) 3. Bb5 *');
  await page.click('#load-pgn');
  assert.deepEqual(await moveTexts(), ['e4', 'e5', 'Nf3', 'Nc6', 'd6', 'd4', 'Bb5']);
  assert.deepEqual(await page.locator('#moves .move.side').allTextContents(), ['d6', 'd4']);
  assert.deepEqual(await page.locator('#moves .paren').allTextContents(), ['(', ')']);
  assert.equal(await page.textContent('#moves .current'), 'Bb5', 'the game opens at its last move');
  await page.click('#first');
  assert.equal(await page.isHidden('#line-tools'), true, 'no move, no tools');

  // After 1. e4 e5, play 2. Bc4 on the board: the game after it stays.
  await page.click('#first');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await clickSquare('f1');
  await clickSquare('c4');
  await page.waitForFunction(() => document.querySelector('#moves .current')?.textContent === 'Bc4');
  // Lichess's order: each side line right after the main move it replaces.
  assert.deepEqual(await moveTexts(), ['e4', 'e5', 'Nf3', 'Bc4', 'Nc6', 'd6', 'd4', 'Bb5']);
  assert.equal(await page.inputValue('#fen'), 'rnbqkbnr/pppp1ppp/8/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 2');

  // A side move is reached by a click; promote makes it the main line.
  await page.locator('#moves .move', { hasText: 'd6' }).click();
  assert.equal(await page.inputValue('#fen'), 'rnbqkbnr/ppp2ppp/3p4/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3');
  assert.equal(await page.isVisible('#line-tools'), true);
  await page.click('#promote-line');
  await page.screenshot({ path: join(shots, 'move-tree.png') });
  assert.deepEqual(await moveTexts(), ['e4', 'e5', 'Nf3', 'Bc4', 'd6', 'Nc6', 'Bb5', 'd4']);
  await page.click('#copy-pgn');
  assert.match(await page.inputValue('#pgn'), /1\. e4 e5 2\. Nf3 \( 2\. Bc4 \) 2\.\.\. d6 \( 2\.\.\. Nc6 3\. Bb5 \) 3\. d4 \*/);

  // Delete from the cursor: the side line 2. Bc4 goes, the cursor steps back.
  await page.locator('#moves .move', { hasText: 'Bc4' }).click();
  await page.click('#delete-line');
  assert.deepEqual(await moveTexts(), ['e4', 'e5', 'Nf3', 'd6', 'Nc6', 'Bb5', 'd4']);
  assert.equal(await page.textContent('#moves .current'), 'e5');
});

test('watch: the engine plays itself', async () => {
  await page.click('nav button[data-mode=watch]');
  await page.click('#watch-new');
  await page.selectOption('#watch-time', 'go movetime 300');
  await page.click('#watch-toggle');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length >= 4, null, { timeout: 30000 });
  await page.click('#watch-toggle');
  const count = await moveCount();
  await page.waitForTimeout(700);
  assert.ok((await moveCount()) <= count + 1, 'stopping stops');
});

test('at 360 px wide the page fits without scrolling sideways', async () => {
  await page.click('nav button[data-mode=play]');
  await page.setViewportSize({ width: 360, height: 740 });
  await page.waitForTimeout(300); // chessground redraws on the next frames
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > 360)
      .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`)
      .slice(0, 5),
  );
  assert.ok(width <= 360, `page is ${width} px wide: ${wide}`);
  const box = await page.locator('#board').boundingBox();
  assert.ok(box.width >= 300 && box.x >= 0 && box.x + box.width <= 360, JSON.stringify(box));
  await page.screenshot({ path: join(shots, 'phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('the manifest makes the site installable', async () => {
  const manifest = await page.evaluate(() => fetch('manifest.webmanifest').then((r) => r.json()));
  assert.equal(manifest.display, 'standalone');
  assert.ok(manifest.icons.some((i) => i.sizes === '512x512'));
  for (const icon of manifest.icons) {
    const status = await page.evaluate((src) => fetch(src).then((r) => r.status), icon.src);
    assert.equal(status, 200, icon.src);
  }
});

test('after the first visit the site works with the network off', async () => {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve));
    }
  });
  // The service worker keeps the engine build this browser runs (threaded
  // relaxed SIMD in chromium on this cross-origin isolated page), and not
  // the others it has not fetched.
  const cached = await page.evaluate(async () => {
    const names = async () => {
      const keys = await Promise.all((await caches.keys()).filter((k) => k.startsWith('deepchess-')).map(async (k) => (await caches.open(k)).keys()));
      return keys.flat().map((r) => new URL(r.url).pathname.split('/').pop());
    };
    for (let i = 0; i < 100 && !(await names()).includes('deepchess_relaxed_mt_bg.wasm'); i++) await new Promise((r) => setTimeout(r, 100));
    return names();
  });
  for (const file of ['deepchess_relaxed_mt_bg.wasm', 'deepchess_relaxed_mt.js', 'helper.js']) assert.ok(cached.includes(file), cached.join(' '));
  for (const file of ['deepchess_relaxed_bg.wasm', 'deepchess_simd_bg.wasm', 'deepchess_simd_mt_bg.wasm', 'deepchess_scalar_bg.wasm']) {
    assert.ok(!cached.includes(file), cached.join(' '));
  }
  // A worker's URL options survive the service worker's cache.
  const ids = await page.evaluate(() =>
    Promise.all(
      ['engine/worker.js?build=scalar&webgpu=0', 'engine/worker.js'].map(
        (url) =>
          new Promise((resolve) => {
            const worker = new Worker(url, { type: 'module' });
            worker.onmessage = ({ data }) => {
              if (data.startsWith('id name')) {
                worker.terminate();
                resolve(data);
              }
            };
            worker.postMessage('uci');
          }),
      ),
    ),
  );
  assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null), 'the page is controlled');
  assert.match(ids[0], /wasm-scalar$/);
  assert.match(ids[1], /wasm-relaxed-mt$/);
  // A network other than the embedded one is downloaded once: the worker
  // keeps it by content hash, and it loads again with the network off.
  const net = 'deepchess-d535640278a8.dcnn';
  mkdirSync(join(dist, 'test-nets'), { recursive: true });
  copyFileSync(join(dist, '..', '..', 'weights', net), join(dist, 'test-nets', net));
  const evalFile = [`setoption name EvalFile value /test-nets/${net}`, 'go depth 1'];
  try {
    const first = await uci(page, evalFile, '^bestmove');
    assert.match(first[0], new RegExp(`^info string network /test-nets/${net} downloaded \\(\\d+ bytes\\), cached$`));
    assert.match(first[1], /^info string loaded network \/test-nets\/deepchess-d535640278a8\.dcnn: 773-100-100-100/);
  } finally {
    rmSync(join(dist, 'test-nets'), { recursive: true, force: true });
  }
  // Nothing answers any more: the server stops, and the browser goes offline.
  await browser.stopServer();
  const before = await moveTexts();
  await browser.context.setOffline(true);
  try {
    await page.reload();
    await page.waitForFunction(() => document.querySelector('#engine-status').textContent.startsWith('Ready'), null, {
      timeout: 30000,
    });
    const again = await uci(page, evalFile, '^bestmove');
    assert.deepEqual(again.slice(0, 1), [`info string network /test-nets/${net} from the cache`]);
    assert.match(again[1], /^info string loaded network \/test-nets\/deepchess-d535640278a8\.dcnn: 773-100-100-100/);
    // The game on the board before the reload is back; a new one starts.
    assert.deepEqual(await moveTexts(), before);
    await page.click('nav button[data-mode=play]');
    await page.click('#new-game');
    await page.selectOption('#strength', 'go depth 3');
    await clickSquare('d2');
    await clickSquare('d4');
    await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 2, null, { timeout: 30000 });
    // A network never downloaded cannot load offline: the picker goes back to the one that plays, with a message.
    assert.equal(await page.inputValue('#network'), '');
    // Picked as a player picks it (a change event on the choice); Playwright's
    // selectOption waited here in vain, now and then, for the panel to count as visible.
    await page.evaluate(() => {
      const select = document.querySelector('#network');
      select.append(new Option('Never downloaded', new URL('nets/deepchess-000000000000.dcsn', location.href).href));
      select.value = select.options[select.options.length - 1].value;
      select.dispatchEvent(new Event('change'));
    });
    await page.waitForFunction(() => document.querySelector('#engine-status').textContent.startsWith('Could not load that network'), null, {
      timeout: 30000,
    });
    assert.equal(await page.inputValue('#network'), '', 'the picker is back on the built-in network');
    // In a player's words: why (offline, never downloaded), and what still plays.
    assert.match(await page.textContent('#engine-status'), /not downloaded before going offline .*\. The previous one still plays\.$/);
  } finally {
    await browser.context.setOffline(false);
  }
});
