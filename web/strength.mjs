// The Strength menu of the page, built from the fitted ladder
// (web/strength-levels.json, written by `python3 scripts/ladder_fit.py --json`),
// so that its labels are the measured ratings and not numbers typed by hand.

/** The label of one level: its limit and its rating rounded to 50. */
export function levelLabel(level) {
  const depth = /^go depth (\d+)$/.exec(level.go);
  const movetime = /^go movetime (\d+)$/.exec(level.go);
  if (!depth && !movetime) throw new Error(`strength level ${level.level}: unknown limit ${JSON.stringify(level.go)}`);
  const limit = depth ? `Depth ${depth[1]}` : `${Number(movetime[1]) / 1000} s per move`;
  return `${limit} · about ${Math.round(level.elo / 50) * 50}`;
}

/**
 * The page with its Strength menu filled in: `<!-- strength levels -->` in
 * `html` becomes one option per level, weakest first, the weakest selected
 * (a first-time player's start; the choice is kept for the next visit);
 * `__STRENGTH_TITLE__` the menu's tooltip, with the fitted line, and
 * `__STRENGTH_HINT__` the visible line that says what the numbers are.
 */
export function strengthMenu(html, ladder) {
  const levels = [...ladder.levels].sort((a, b) => a.seconds - b.seconds);
  if (levels.length === 0) throw new Error('strength levels: none');
  for (const mark of ['<!-- strength levels -->', '__STRENGTH_TITLE__', '__STRENGTH_HINT__']) {
    if (!html.includes(mark)) throw new Error(`index.html: no ${mark} to fill`);
  }
  const options = levels.map((level, i) => {
    const end = i === 0 ? ' (weakest)' : i === levels.length - 1 ? ' (strongest)' : '';
    const selected = i === 0 ? ' selected' : '';
    return `<option value="${level.go}"${selected}>${levelLabel(level)}${end}</option>`;
  });
  if (!ladder.player) throw new Error('strength levels: no player (how our side played the games)');
  const { a, b, games } = ladder.fit;
  const title =
    `Ratings on the scale of ${ladder.anchor}, measured ${ladder.player}: ` +
    `Elo = ${a} + ${b} × log2(seconds a move), fitted to ${games} games. ` +
    'A slower device searches fewer nodes in the timed levels.';
  const anchor = ladder.anchor.split(',')[0];
  const hint =
    `Ratings in Elo, against ${anchor} at its own rating levels; ` +
    'a slow device plays the timed levels a little weaker.';
  return html
    .replace('<!-- strength levels -->', options.join('\n          '))
    .replace('__STRENGTH_TITLE__', title)
    .replace('__STRENGTH_HINT__', hint);
}
