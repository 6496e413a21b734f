// Analysis after a change of *Lines*: exactly that many lines, all from the
// new search (the previous search's last reports, for the same position, must
// not land in the new list).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { closeChecked, openFresh, start } from './browser.mjs';

let browser;
let page;
before(async () => {
  browser = await start();
  page = await browser.context.newPage();
  await openFresh(page, browser.origin);
  await page.waitForFunction(() => /^Ready/.test(document.querySelector('#engine-status').textContent));
  await page.click('nav button[data-mode=analyse]');
});
after(() => closeChecked(browser));

const shown = () => page.evaluate(() => document.querySelectorAll('#pv-lines li').length);

test('after Lines 5 → 1 and 5 → 3, the list holds exactly the new count, again and again', async () => {
  for (let round = 0; round < 4; round++) {
    for (const fewer of [1, 3]) {
      await page.selectOption('#multipv', '5');
      await page.waitForFunction(() => document.querySelectorAll('#pv-lines li').length === 5, null, { timeout: 30000 });
      // The five-line search well under way, reporting lines 2 to 5 as it goes.
      await page.waitForTimeout(1500);
      await page.selectOption('#multipv', String(fewer));
      await page.waitForFunction(() => document.querySelectorAll('#pv-lines li').length > 0, null, { timeout: 30000 });
      // Long enough for any late report of the old search to have arrived.
      await page.waitForTimeout(1000);
      assert.equal(await shown(), fewer, `round ${round}: Lines ${fewer}`);
      // The arrows follow the lines: one a line.
      const arrows = await page.evaluate(() => document.querySelectorAll('#board svg.cg-shapes line').length);
      assert.equal(arrows, fewer, `${arrows} arrows for ${fewer} lines`);
    }
  }
});
