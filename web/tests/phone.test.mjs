// A freshly loaded page takes a move tapped on its board at phone and tablet
// widths, with nothing scrolled first: the board must measure itself again
// whenever the layout around it moves it (the header growing when the engine
// becomes ready, a network's name in the status line, a panel beside it).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { clickSquare, closeChecked, openFresh, shots, start } from './browser.mjs';

let browser;
before(async () => {
  browser = await start();
});
after(() => closeChecked(browser));

/**
 * Taps `square` (`e2`) where the page shows it, without scrolling, once the
 * board has held still for 100 ms: the header may still be growing (the
 * networks' list arriving), and a tap aimed at a board that moves between
 * the aim and the tap lands on another square, a person's too. What the test
 * holds is that the board measures itself again after such a move.
 */
async function tap(page, square) {
  const board = page.locator('#board cg-board');
  let before = await board.boundingBox();
  for (;;) {
    await page.waitForTimeout(100);
    const now = await board.boundingBox();
    if (['x', 'y', 'width', 'height'].every((k) => Math.abs(now[k] - before[k]) < 0.5)) break;
    before = now;
  }
  await clickSquare(page, square);
}

/** Waits two frames: whatever the page changed has been laid out and painted. */
function twoFrames(page) {
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

for (const [width, height] of [
  [360, 740],
  [390, 844],
  [1024, 768],
]) {
  test(`at ${width} px a move tapped right after the engine is ready is played`, async () => {
    const page = await browser.context.newPage();
    try {
      await page.setViewportSize({ width, height });
      // A fresh game, whatever an earlier test left in storage.
      await openFresh(page, browser.origin);
      await page.waitForFunction(() => /^Ready/.test(document.querySelector('#engine-status').textContent));
      await page.selectOption('#strength', 'go depth 3');
      await tap(page, 'e2');
      await tap(page, 'e4');
      await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 2, null, { timeout: 30000 });
      assert.equal((await page.locator('#moves .move').allTextContents())[0], 'e4');
      // Whatever the header says next, the board keeps up: a longer status line.
      await page.evaluate(() => {
        document.querySelector('#engine-status').textContent = 'a status line long enough to wrap onto two or three lines at any width of this page, '.repeat(2);
      });
      await twoFrames(page);
      // And whatever moves it without resizing anything (a centred panel
      // beside it growing wider): a press on an empty square has the board
      // measure where it lies, then it moves one square to the left. A
      // board that mapped taps through that old measure would play c2-c4.
      await tap(page, 'h5');
      await page.evaluate(() => {
        const area = document.querySelector('.board-area');
        const square = document.querySelector('#board cg-board').getBoundingClientRect().width / 8;
        area.style.position = 'relative';
        area.style.left = `${-square}px`;
      });
      await twoFrames(page);
      await tap(page, 'd2');
      await tap(page, 'd4');
      await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 4, null, { timeout: 30000 });
      assert.equal((await page.locator('#moves .move').allTextContents())[2], 'd4');
      await page.screenshot({ path: join(shots, `play-${width}.png`) });
    } finally {
      await page.close();
    }
  });
}

test('at 390 px the board stays on screen through a 30-move game: the move list scrolls, the page does not', async () => {
  const page = await browser.context.newPage();
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await openFresh(page, browser.origin);
    await page.waitForFunction(() => /^Ready/.test(document.querySelector('#engine-status').textContent));
    // Every frame: how far the page has scrolled and where the board's top edge is.
    await page.evaluate(() => {
      window.seen = { scrolled: 0, top: Infinity, moves: 0 };
      const look = () => {
        window.seen.scrolled = Math.max(window.seen.scrolled, window.scrollY);
        window.seen.top = Math.min(window.seen.top, document.querySelector('#board').getBoundingClientRect().top);
        window.seen.moves = document.querySelectorAll('#moves .move').length;
        requestAnimationFrame(look);
      };
      look();
    });
    await page.click('nav button[data-mode=watch]');
    await page.click('#watch-new');
    await page.selectOption('#watch-time', 'go movetime 100');
    await page.click('#watch-toggle');
    await page.waitForFunction(() => document.querySelector('#watch-toggle').textContent !== 'Start');
    await page.waitForFunction(
      () => window.seen.moves >= 60 || document.querySelector('#watch-toggle').textContent === 'Start',
      null,
      { timeout: 120000 },
    );
    // Stop the game if it still runs: a finished game's button says Start,
    // and a press on it would begin a new game with an empty list.
    if ((await page.textContent('#watch-toggle')) !== 'Start') await page.click('#watch-toggle');
    const seen = await page.evaluate(() => window.seen);
    assert.ok(seen.moves >= 20, `the game went on: ${seen.moves} moves`);
    assert.equal(seen.scrolled, 0, `the page scrolled ${seen.scrolled} px`);
    assert.ok(seen.top >= 0, `the board's top edge went to ${seen.top} px`);
    // The list itself shows the last move.
    const last = await page.evaluate(() => {
      const list = document.querySelector('#moves').getBoundingClientRect();
      const move = document.querySelector('#moves .current').getBoundingClientRect();
      return move.top >= list.top - 1 && move.bottom <= list.bottom + 1;
    });
    assert.ok(last, 'the current move is in view in the list');
  } finally {
    await page.close();
  }
});
