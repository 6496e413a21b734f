// Play with a clock (increments, the flag), resigning and offering a draw.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { clickSquare as clickBoard, closeChecked, openFresh, shots, start } from './browser.mjs';

let browser;
let page;
before(async () => {
  browser = await start();
  page = await browser.context.newPage();
  // The page's timers are Playwright's, flowing as usual until a test jumps ahead.
  await page.clock.install();
  await openFresh(page, browser.origin);
  await page.clock.resume();
  await page.waitForFunction(() => document.querySelector('#engine-status').textContent.startsWith('Ready'), null, { timeout: 30000 });
  await page.selectOption('#strength', 'go depth 3');
});
after(() => closeChecked(browser));

const clickSquare = (square) => clickBoard(page, square);

const moves = (n) => page.waitForFunction((n) => document.querySelectorAll('#moves .move').length === n, n, { timeout: 30000 });

test('a 3 + 2 clock: both sides start at 3:00, the side to move runs, the increment comes after a move', async () => {
  await page.selectOption('#clock', '180+2');
  assert.ok(await page.locator('#clocks').isVisible());
  assert.deepEqual(await page.locator('#clocks .time').allTextContents(), ['3:00', '3:00']);
  assert.deepEqual(await page.locator('#clocks .who').allTextContents(), ['DeepChess', 'You']);
  await clickSquare('e2');
  await clickSquare('e4');
  await moves(2);
  assert.ok(await page.locator('#clock-bottom.running').count(), 'our time runs');
  // The engine's reply took a fraction of a second, and it gained 2 s.
  assert.match(await page.textContent('#clock-top .time'), /^3:0[12]$/);
  await page.screenshot({ path: join(shots, 'clocks.png') });
});

test('running out of time loses', async () => {
  await page.clock.fastForward('03:05');
  await page.waitForFunction(() => document.querySelector('#status').textContent === 'You ran out of time: DeepChess wins (0-1)');
  assert.ok(await page.locator('#clock-bottom.running').count() === 0, 'the clocks stop');
  assert.ok(await page.locator('#resign').isDisabled());
});

test('resigning ends the game, and the PGN says so', async () => {
  await page.click('#new-game');
  await clickSquare('d2');
  await clickSquare('d4');
  await moves(2);
  await page.click('#resign');
  assert.equal(await page.textContent('#status'), 'You resigned: DeepChess wins (0-1)');
  // The move list ends with the result, as a score sheet does.
  assert.equal(await page.textContent('#moves .result'), '0-1');
  await page.click('#io summary');
  await page.click('#copy-pgn');
  assert.match(await page.inputValue('#pgn'), /\[Result "0-1"\]/);
});

test('a draw offer before move 20 is declined in words', async () => {
  await page.selectOption('#clock', '');
  assert.ok(await page.locator('#clocks').isHidden());
  assert.ok(await page.locator('#offer-draw').isDisabled(), 'no offer before a move');
  await clickSquare('g1');
  await clickSquare('f3');
  await moves(2);
  await page.click('#offer-draw');
  assert.equal(await page.textContent('#play-note'), 'DeepChess plays on: it is too early for a draw.');
  assert.match(await page.textContent('#status'), /Your move/);
});

test('the status names a check, and a step back says how to return to the game', async () => {
  await page.selectOption('#clock', '');
  // White, to move and in check (the link opens it in Analyse), then played from there.
  await page.goto(`${browser.origin}/#fen=${encodeURIComponent('4k3/p7/8/8/8/8/4q3/R3K3 w - - 0 1')}`);
  await page.waitForFunction(() => /in check/.test(document.querySelector('#status').textContent));
  await page.click('nav button[data-mode=play]');
  await page.waitForFunction(() => document.querySelector('#status').textContent === 'Your move (White), in check');
  await clickSquare('e1');
  await clickSquare('e2');
  await moves(2);
  await page.click('#prev');
  assert.match(await page.textContent('#status'), /to move.*an earlier position: » returns to the game$/);
  await page.click('#last');
  assert.match(await page.textContent('#status'), /^(Your move \(White\)|DeepChess is thinking…|.*(wins|draw).*)/);
});

test('changing the clock or the side with a game under way asks first', async () => {
  await page.click('#new-game');
  await clickSquare('e2');
  await clickSquare('e4');
  await moves(2);
  // Declined: the game and the choice stay as they were.
  page.once('dialog', (dialog) => dialog.dismiss());
  await page.selectOption('#clock', '300+3');
  assert.equal(await page.inputValue('#clock'), '');
  assert.equal(await page.locator('#moves .move').count(), 2);
  page.once('dialog', (dialog) => dialog.dismiss());
  await page.selectOption('#side', 'black');
  assert.equal(await page.inputValue('#side'), 'white');
  assert.equal(await page.locator('#moves .move').count(), 2);
  // Accepted: a new game with the new clock.
  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.message();
    return dialog.accept();
  });
  await page.selectOption('#clock', '300+3');
  assert.match(asked, /new game/);
  assert.equal(await page.locator('#moves .move').count(), 0);
  assert.deepEqual(await page.locator('#clocks .time').allTextContents(), ['5:00', '5:00']);
});
