// The site's screenshots for docs/browser.md: Play, Analyse and Watch at
// 1280 × 800 and at 390 × 844 (a phone), taken from the built site (web/dist)
// in Debian's chromium. `node web/screenshots.mjs [folder]` (default docs/screens),
// or `make screenshots`, which builds the site first.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clickSquare, openFresh, start } from './tests/browser.mjs';

const out = process.argv[2] ?? fileURLToPath(new URL('../docs/screens', import.meta.url));
mkdirSync(out, { recursive: true });

// A short game to analyse: the Opera Game (Morphy against the Duke and the Count, Paris 1858), up to 11... Nbd7.
const OPERA =
  '[White "Morphy"]\n[Black "Duke Karl / Count Isouard"]\n\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 ' +
  '6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 *';

const ready = (page) => page.waitForFunction(() => /^Ready/.test(document.querySelector('#engine-status').textContent), null, { timeout: 60000 });
const moves = (page, n) =>
  page.waitForFunction((k) => document.querySelectorAll('#moves .move').length >= k, n, { timeout: 120000 });

/** Play: three moves of an Italian game against the weakest level, the engine's replies on the board. */
async function play(page) {
  await page.click('nav button[data-mode=play]');
  for (const [from, to] of [['e2', 'e4'], ['g1', 'f3'], ['f1', 'c4']]) {
    const before = await page.locator('#moves .move').count();
    await clickSquare(page, from);
    await clickSquare(page, to);
    await moves(page, before + 2);
  }
}

/** Analyse: the Opera Game after 11. Bxb5+ Nbd7, three lines searched two seconds. */
async function analyse(page) {
  await page.evaluate(() => (document.querySelector('#io').open = true));
  await page.fill('#pgn', OPERA);
  await page.click('#load-pgn');
  await page.evaluate(() => (document.querySelector('#io').open = false));
  await page.waitForFunction(() => document.querySelectorAll('#pv-lines li').length === 3, null, { timeout: 60000 });
  await page.waitForTimeout(2000);
}

/** Watch: the engine against itself at 0.1 s a move, stopped after 20 moves. */
async function watch(page) {
  await page.click('nav button[data-mode=watch]');
  await page.click('#watch-new');
  await page.selectOption('#watch-time', 'go movetime 100');
  await page.click('#watch-toggle');
  await moves(page, 20);
  if ((await page.textContent('#watch-toggle')) !== 'Start') await page.click('#watch-toggle');
}

const browser = await start();
try {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ]) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height });
    await openFresh(page, browser.origin);
    await ready(page);
    for (const [name, show] of Object.entries({ play, analyse, watch })) {
      await show(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      const path = join(out, `${name}-${width}.png`);
      await page.screenshot({ path });
      console.log(`screenshots: ${path}`);
    }
    await page.close();
  }
  if (browser.errors.length) throw new Error(`the page logged errors: ${browser.errors.join('; ')}`);
} finally {
  await browser.close();
}
