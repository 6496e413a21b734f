// The site's networks and searches: each search the built-in network plays,
// every shipped network picked in Engine settings, and two networks playing
// each other in Watch.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { THREADS_HERE, clickSquare as clickBoard, closeChecked, dist, openSettings, openSite, shots } from './browser.mjs';

let browser;
let page;
before(async () => {
  ({ browser, page } = await openSite('/'));
  await page.waitForFunction(() => document.querySelector('#engine-status').textContent.startsWith('Ready'));
  await page.click('nav button[data-mode=analyse]');
});
after(() => closeChecked(browser));

/** Clicks a square (`e2`) of the board, seen from White's side. */
async function clickSquare(square) {
  await page.locator('#board').scrollIntoViewIfNeeded();
  await clickBoard(page, square);
}

/** Whether the analysis has searched far enough: depth 2 or more, or (MCTS, which has no depth) 100 playouts. */
const searched = (search) => {
  const stats = document.querySelector('#analysis-stats').textContent;
  return search === 'mcts' ? Number(/([\d,]+) playouts$/.exec(stats)?.[1].replace(/,/g, '')) >= 100 : /depth ([2-9]|\d\d)/.test(stats);
};
const moveCount = () => page.locator('#moves .move').count();

test('analysis runs with each search the built-in network plays, chosen on the page', async () => {
  await openSettings(page);
  // The built-in value network plays the scalar search and MCTS; the comparison search needs the paper's network.
  assert.deepEqual(await page.$$eval('#search option', (options) => options.map((o) => [o.value, o.disabled])), [
    ['scalar', false],
    ['comparison', true],
    ['mcts', false],
  ]);
  // MultiPV 3: MCTS reports the three most visited root moves, the alpha-beta search its three best lines.
  for (const [search, lines] of [['mcts', 3], ['scalar', 3]]) {
    await page.selectOption('#search', search);
    await page.waitForFunction((n) => document.querySelectorAll('#pv-lines li').length === n, lines, { timeout: 30000 });
    await page.waitForFunction(searched, search, { timeout: 30000 });
    // MCTS counts playouts and gives no depth; the alpha-beta search gives each line's depth.
    const line = search === 'mcts' ? /^[+-]?\d+\.\d\d 1\. |^#-?\d+ 1\. / : /^[+-]?\d+\.\d\d d\d+ 1\. |^#-?\d+ d\d+ 1\. /;
    assert.match(await page.textContent('#pv-lines li'), line);
    const stats = search === 'mcts' ? /^[\d.]+k playouts\/s · [\d,]+ playouts$/ : /^depth \d+\/\d+ · [\d.]+k nodes\/s · [\d,]+ nodes$/;
    assert.match(await page.textContent('#analysis-stats'), stats);
    // The line under the choice says what the search does, and why the paper's search is not offered.
    assert.match(await page.textContent('#search-hint'), search === 'mcts' ? /^Monte Carlo tree search/ : /^Looks ahead move by move/);
    assert.match(await page.textContent('#search-hint'), /Position comparison needs the paper's comparison network/);
  }
  assert.equal(await page.textContent('#search option[value=mcts]'), 'Monte Carlo tree search');
});

test("the Network choice plays the paper's network with each of its searches, every other learner, then the built-in one again", async () => {
  const learners = JSON.parse(readFileSync(join(dist, '..', '..', 'weights', 'learners.json'), 'utf8'));
  await page.waitForFunction((n) => document.querySelectorAll('#network option').length === n, learners.length + 1);
  await openSettings(page);
  const names = await page.locator('#network option').allTextContents();
  // Each by its name; the line under the choice marks the other learners as experimental.
  assert.deepEqual(names, ['DeepChess (built in)', ...learners.map((n) => n.name)]);
  for (const [k, net] of learners.entries()) {
    await page.selectOption('#network', { index: k + 1 });
    await page.waitForFunction(
      ({ file, name }) =>
        document.querySelector('#engine-status').textContent.startsWith(`${name} loaded · `) &&
        document.querySelector('#engine-details').textContent.includes(` · network ${file}: `),
      { file: net.file, name: net.name },
      { timeout: 30000 },
    );
    // What the list says it plays: the paper's network all three searches, a learner only the scalar search,
    // the AlphaZero network only MCTS, a network without a comparison head no comparison.
    const plays = net.plays;
    const words = { scalar: 'alpha-beta', comparison: 'position comparison', mcts: 'MCTS' };
    const details = await page.textContent('#engine-details');
    assert.ok(details.endsWith(` · plays ${plays.map((p) => words[p]).join(', ')}`), details);
    // The summary of the closed panel names the network; the line under the choice says what it is.
    assert.ok((await page.textContent('#settings-summary')).startsWith(`${net.name} · `));
    assert.equal(await page.textContent('#network-hint'), `${net.description}.${net.learner === 'deepchess' ? '' : ' Experimental: far weaker than DeepChess.'}`);
    assert.equal(await page.locator('#search').isDisabled(), plays.length === 1, 'a learner has only its own search');
    const offered = await page.$$eval('#search option', (options) => options.filter((o) => !o.disabled).map((o) => o.value));
    assert.deepEqual(offered, plays);
    for (const search of plays) {
      if (plays.length > 1) await page.selectOption('#search', search);
      assert.equal(await page.inputValue('#search'), search);
      // Analysis is on: the network's three lines come in (MultiPV 3).
      await page.waitForFunction(() => document.querySelectorAll('#pv-lines li').length === 3, null, { timeout: 30000 });
      await page.waitForFunction(searched, search, { timeout: 30000 });
    }
    // Leave the paper's network on its comparison search: the built-in one, which lacks it, must fall back.
    if (plays.length > 1 && plays.includes('comparison')) await page.selectOption('#search', 'comparison');
  }
  await page.selectOption('#network', { index: 1 });
  await page.waitForFunction(() => / · plays alpha-beta, position comparison, MCTS$/.test(document.querySelector('#engine-details').textContent));
  await page.selectOption('#search', 'comparison');
  await page.selectOption('#network', '');
  await page.waitForFunction(() => document.querySelector('#engine-status').textContent.startsWith('DeepChess loaded · '));
  // The engine's build and threads come back with the built-in network.
  const details = await page.textContent('#engine-details');
  assert.match(details, /^DeepChess \S+, WebAssembly with .* · (up to \d+ threads|one thread) here · network deepchess-[0-9a-f]{12}\.dcnn: 773-/);
  assert.ok(details.includes(` · ${THREADS_HERE} · `), details);
  assert.ok(!(await page.locator('#search').isDisabled()));
  assert.equal(await page.inputValue('#search'), 'scalar', 'the comparison search falls back to the scalar one');
  await page.waitForFunction(() => document.querySelectorAll('#pv-lines li').length === 3, null, { timeout: 30000 });
});

test("watch: two different networks play a game to the end; play: the untrained network replies", async () => {
  const learners = JSON.parse(readFileSync(join(dist, '..', '..', 'weights', 'learners.json'), 'utf8'));
  const untrained = learners.find((n) => n.file.endsWith('.dcaz') && /untrained/.test(n.name));
  assert.ok(untrained, 'weights/learners.json lists the AlphaZero reimplementation\'s untrained network');
  // White: the built-in network (the Network choice); Black: the untrained one, in a second engine.
  await page.click('nav button[data-mode=watch]');
  await page.click('#watch-new');
  assert.equal(await page.inputValue('#network'), '');
  await page.selectOption('#watch-black', { label: untrained.name });
  await page.selectOption('#watch-time', 'go movetime 100');
  // Every status the game shows (each lasts a moment).
  await page.evaluate(() => {
    window.statuses = new Set();
    new MutationObserver(() => window.statuses.add(document.querySelector('#status').textContent)).observe(document.querySelector('#status'), {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  await page.click('#watch-toggle');
  await page.waitForFunction((name) => document.querySelector('#engine-status').textContent === `${name} plays Black`, untrained.name, {
    timeout: 30000,
  });
  // The game runs to its end by the rules, and watching stops there.
  await page.waitForFunction(() => /(White wins|Black wins|a draw)/.test(document.querySelector('#status').textContent), null, {
    timeout: 180000,
  });
  const status = await page.textContent('#status');
  assert.equal(await page.textContent('#watch-toggle'), 'Start', status);
  const moves = await moveCount();
  assert.ok(moves >= 4, `${moves} moves: ${status}`);
  // The untrained network plays randomly: the built-in one wins.
  assert.match(status, /White wins \(1-0\)$/);
  // While each side thought, the status named its network: Black's counted playouts (MCTS has no depth), White's gave a depth.
  const statuses = await page.evaluate(() => [...window.statuses]);
  assert.ok(statuses.some((s) => s.startsWith(`${untrained.name} is thinking… `) && / [\d,]+ playouts, /.test(s)), statuses.join('\n'));
  assert.ok(statuses.some((s) => /^DeepChess is thinking… depth \d+, /.test(s)), statuses.join('\n'));
  await page.screenshot({ path: join(shots, 'watch-two-networks.png') });
  // The PGN copied out names each side's network.
  await page.evaluate(() => (document.querySelector('#io').open = true));
  await page.click('#copy-pgn');
  const pgn = await page.inputValue('#pgn');
  assert.match(pgn, /\[White "DeepChess"\]/);
  assert.ok(pgn.includes(`[Black "${untrained.name}"]`), pgn);
  await page.selectOption('#watch-black', '');

  // Play against the untrained network itself: it answers a move.
  await page.click('nav button[data-mode=play]');
  await page.selectOption('#side', 'white');
  await openSettings(page);
  await page.selectOption('#network', { label: untrained.name });
  await page.waitForFunction((name) => document.querySelector('#engine-status').textContent.startsWith(`${name} loaded · `), untrained.name, {
    timeout: 30000,
  });
  assert.equal(await page.inputValue('#search'), 'mcts');
  await clickSquare('e2');
  await clickSquare('e4');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 2, null, { timeout: 30000 });
  assert.match(await page.textContent('#status'), /Your move/);
  await page.selectOption('#network', '');
  await page.waitForFunction(() => document.querySelector('#engine-status').textContent.startsWith('DeepChess loaded · '));
});
