// The Strength menu is built from the fitted ladder (strength-levels.json), under node.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { dist } from './browser.mjs';
import { levelLabel, strengthMenu } from '../strength.mjs';

const here = new URL('..', import.meta.url);
const ladder = JSON.parse(readFileSync(new URL('strength-levels.json', here), 'utf8'));
const page = readFileSync(new URL('index.html', here), 'utf8');
/** The Strength menu's options: [whole, go command, selected, label]. */
const options = (html) => {
  const menu = /<select id="strength">([\s\S]*?)<\/select>/.exec(html)[1];
  return [...menu.matchAll(/<option value="(go [^"]+)"( selected)?>([^<]+)<\/option>/g)];
};

test('every fitted level is an option, weakest first, labelled with its rating', () => {
  const built = options(strengthMenu(page, ladder));
  const levels = [...ladder.levels].sort((a, b) => a.seconds - b.seconds);
  assert.deepEqual(built.map((o) => o[1]), levels.map((l) => l.go));
  for (const [i, o] of built.entries()) assert.match(o[3], new RegExp(`about ${Math.round(levels[i].elo / 50) * 50}\\b`));
  assert.match(built[0][3], /\(weakest\)$/);
  assert.match(built.at(-1)[3], /\(strongest\)$/);
  // A first visit starts at the weakest level.
  assert.deepEqual(built.filter((o) => o[2]).map((o) => o[1]), [levels[0].go]);
  // The site's tests and saved sessions pick depth 3.
  assert.ok(levels.some((l) => l.go === 'go depth 3'));
});

test('labels round to 50 and name the limit', () => {
  assert.equal(levelLabel({ level: 'd3', go: 'go depth 3', elo: 1624 }), 'Depth 3 · about 1600');
  assert.equal(levelLabel({ level: 'mt100', go: 'go movetime 100', elo: 2076 }), '0.1 s per move · about 2100');
  assert.equal(levelLabel({ level: 'mt3000', go: 'go movetime 3000', elo: 2449 }), '3 s per move · about 2450');
  assert.throws(() => levelLabel({ level: 'n5', go: 'go nodes 5', elo: 1000 }), /unknown limit/);
});

test('the tooltip gives the fitted line and its games; the visible line names the scale', () => {
  const html = strengthMenu(page, ladder);
  assert.ok(!html.includes('__STRENGTH_TITLE__'));
  assert.ok(!html.includes('__STRENGTH_HINT__'));
  assert.match(/<p id="strength-hint" class="hint">([^<]+)<\/p>/.exec(html)[1], /^Ratings in Elo, against Stockfish 15\.1 at its own rating levels/);
  assert.ok(html.includes(`measured ${ladder.player}: Elo = ${ladder.fit.a} + ${ladder.fit.b} × log2(seconds a move), fitted to ${ladder.fit.games} games`));
});

test('a page without the menu to fill, or a ladder without levels, is an error', () => {
  assert.throws(() => strengthMenu('<select id="strength"></select>', ladder), /no <!-- strength levels --> to fill/);
  assert.throws(() => strengthMenu(page, { ...ladder, levels: [] }), /none/);
  assert.throws(() => strengthMenu(page, { ...ladder, player: undefined }), /no player/);
});

test('the built page carries the menu the ladder gives', { skip: !existsSync(`${dist}/index.html`) && 'no web/dist' }, () => {
  const built = readFileSync(`${dist}/index.html`, 'utf8');
  assert.deepEqual(options(built).map((o) => o[3]), options(strengthMenu(page, ladder)).map((o) => o[3]));
});
