// What survives a reload (the game, the side, the network, the search and
// the strength), online and offline; and a link that carries a position.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { clickSquare, closeChecked, openSettings, shots, start } from './browser.mjs';

let browser;
let page;
before(async () => {
  browser = await start();
  page = await browser.page('/');
  await ready();
});
after(() => closeChecked(browser));

const ready = () => page.waitForFunction(() => /^(Ready|.* loaded) · /.test(document.querySelector('#engine-status').textContent), null, { timeout: 30000 });
const moveTexts = () => page.locator('#moves .move').allTextContents();
const paper = "DeepChess, the paper's comparison network";

/** Clicks a square (`e7`) of the board, seen from Black's side. */
const clickFromBlack = (square) => clickSquare(page, square, 'black');

/** The page as a player sees it: moves, the current one, side, board orientation and pickers. */
const seen = () =>
  page.evaluate(() => ({
    moves: [...document.querySelectorAll('#moves .move')].map((m) => m.textContent),
    current: document.querySelector('#moves .current')?.textContent,
    side: document.querySelector('#side').value,
    blackBelow: document.querySelector('#board').classList.contains('orientation-black'),
    strength: document.querySelector('#strength').value,
    network: document.querySelector('#network').selectedOptions[0]?.textContent,
    search: document.querySelector('#search').value,
  }));

test('choosing Black starts a game as Black, the board turned, the engine moving first', async () => {
  await page.selectOption('#strength', 'go depth 3');
  await openSettings(page);
  await page.selectOption('#network', { label: paper });
  await page.waitForFunction((name) => document.querySelector('#engine-status').textContent.startsWith(`${name} loaded`), paper, { timeout: 30000 });
  await page.selectOption('#search', 'comparison');
  await page.selectOption('#side', 'black');
  assert.ok(await page.locator('#board.orientation-black').count(), 'the board shows Black at the bottom');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1, null, { timeout: 30000 });
  assert.match(await page.textContent('#status'), /Your move \(Black\)/);
});

test('two moves, a reload, and the game, side, strength, network and search are back', async () => {
  await clickFromBlack('e7');
  await clickFromBlack('e5');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 3, null, { timeout: 30000 });
  const before = await seen();
  assert.equal(before.moves[1], 'e5');
  assert.deepEqual(
    { side: before.side, blackBelow: before.blackBelow, strength: before.strength, network: before.network, search: before.search },
    { side: 'black', blackBelow: true, strength: 'go depth 3', network: paper, search: 'comparison' },
  );
  await page.reload();
  await page.waitForFunction((name) => document.querySelector('#engine-status').textContent.startsWith(`${name} loaded`), paper, { timeout: 30000 });
  assert.deepEqual(await seen(), before);
  assert.match(await page.textContent('#status'), /Your move \(Black\)/);
  await page.screenshot({ path: join(shots, 'reload.png') });
});

test('a link with #fen= opens its position on the analysis board, then a reload keeps it', async () => {
  const fen = '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1';
  await page.goto(`${browser.origin}/#fen=${fen.replaceAll(' ', '_')}`);
  await page.waitForFunction(() => document.querySelector('nav button[data-mode=analyse]').getAttribute('aria-selected') === 'true');
  assert.equal(await page.inputValue('#fen'), fen);
  assert.equal(await page.evaluate(() => location.hash), '', 'the link has done its work');
  await page.waitForFunction(() => document.querySelector('#pv-lines li')?.textContent.includes('Ra8#'), null, { timeout: 30000 });
  await page.reload();
  await ready();
  assert.equal(await page.inputValue('#fen'), fen);
  // The Link button gives a link to the position at the cursor.
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: browser.origin });
  await page.click('#io summary');
  await page.click('#copy-link');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(link.endsWith(`/#fen=${fen.replaceAll(' ', '_').replaceAll('/', '%2F')}`), link);
});

test('offline, a reload finds the same game and network', async () => {
  // Offline needs the service worker in control and the engine build in its cache.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve));
    }
    const cached = async () => {
      const names = await Promise.all((await caches.keys()).map(async (k) => (await caches.open(k)).keys()));
      return names.flat().some((r) => r.url.endsWith('_mt_bg.wasm'));
    };
    for (let i = 0; i < 100 && !(await cached()); i++) await new Promise((r) => setTimeout(r, 100));
  });
  // The last reload's network and its search back in place: the engine says
  // Ready with its own network first, then loads the saved one.
  await page.waitForFunction(
    (name) => document.querySelector('#engine-status').textContent.startsWith(`${name} loaded`) && document.querySelector('#search').value === 'comparison',
    paper,
    { timeout: 30000 },
  );
  const before = await seen();
  await browser.stopServer();
  await browser.context.setOffline(true);
  try {
    await page.reload();
    await page.waitForFunction(
      (name) => document.querySelector('#engine-status').textContent.startsWith(`${name} loaded`) && document.querySelector('#search').value === 'comparison',
      paper,
      { timeout: 30000 },
    );
    assert.deepEqual(await seen(), before);
  } finally {
    await browser.context.setOffline(false);
  }
});
