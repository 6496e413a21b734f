// A fixed count of nodes (MCTS: playouts) per move, in place of Strength:
// what the engine is sent, the words the panel shows, and a reload that keeps it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickSquare, closeChecked, openFresh, openSettings, start } from './browser.mjs';

let browser;
let page;
before(async () => {
  browser = await start();
  page = await browser.context.newPage();
  // Every line the page sends to an engine worker.
  await page.addInitScript(() => {
    window.sentToEngine = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
      if (typeof message === 'string') window.sentToEngine.push(message);
      return post.call(this, message, ...rest);
    };
  });
  await openFresh(page, browser.origin);
  await page.waitForFunction(() => document.querySelector('#engine-status').textContent.startsWith('Ready'), null, { timeout: 30000 });
});
after(() => closeChecked(browser));

test('ten playouts a move: the engine is sent go nodes 10, and a reload keeps the choice', async () => {
  await openSettings(page);
  assert.equal(await page.inputValue('#per-move'), '', 'Strength decides by default');
  assert.ok(!(await page.locator('#strength').isDisabled()));
  await page.selectOption('#per-move', '10');
  assert.ok(await page.locator('#strength').isDisabled(), 'Strength is set aside');
  assert.ok((await page.textContent('#settings-summary')).endsWith(' · 10 nodes'));
  await page.selectOption('#search', 'mcts');
  await page.waitForFunction(() => document.querySelector('#per-move').selectedOptions[0].textContent === '10 playouts');
  assert.match(await page.textContent('#per-move-hint'), /^A fixed 10 playouts each move, .* report plays 10 playouts a move\.$/);

  await clickSquare(page, 'e2');
  await clickSquare(page, 'e4');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 2, null, { timeout: 30000 });
  const sent = await page.evaluate(() => window.sentToEngine);
  assert.ok(sent.includes('go nodes 10'), sent.join('\n'));
  assert.ok(!sent.some((line) => /^go depth /.test(line)), 'no Strength level was sent');

  await page.reload();
  await page.waitForFunction(() => /^(Ready|.* loaded) · /.test(document.querySelector('#engine-status').textContent), null, { timeout: 30000 });
  assert.equal(await page.inputValue('#per-move'), '10');
  await page.selectOption('#per-move', '');
  assert.ok(!(await page.locator('#strength').isDisabled()));
});
