// The game review: 0.2 s of search on each position of the main line gives
// White's winning chances there, drawn as a graph under the analysis, and
// each move is judged by the chances its side gave away (web/src/review.js).
import { $ } from './dom.js';
import { BLUNDER, JUDGED, MISTAKE, graphPoints, judge, whiteChances } from './review.js';

export class Reviewer {
  constructor() {
    /** The running review, if any (replaced or cleared to stop it). */
    this.run = null;
  }

  /** Stops a running review; what it has seen stays. */
  stop() {
    this.run = null;
  }

  /**
   * Reviews `game`'s main line with `searcher`: each position's chances in
   * `node.chances`, then each move's judgement (`?!`, `?`, `??` as NAGs, so
   * they go out with the PGN) in `node.judgement`, beside the player's own
   * marks, which stay. `drawn` is called after each position. Resolves with
   * whether the review ran to its end (anything else that wants the engine
   * stops it).
   */
  async review(searcher, game, drawn) {
    const run = (this.run = {});
    await searcher.cancel();
    const main = game.mainline();
    searcher.engine.send('setoption name MultiPV value 1');
    $('#review-game').disabled = true;
    for (const [i, node] of main.entries()) {
      if (this.run !== run) break;
      $('#review-progress').textContent = `reviewing ${i + 1} / ${main.length}`;
      const pos = node.pos;
      if (pos.isCheckmate()) node.chances = pos.turn === 'white' ? -1 : 1;
      else if (pos.isStalemate() || pos.isInsufficientMaterial()) node.chances = 0;
      else {
        let last = null;
        const move = await searcher.start(game.uciPositionOf(node), 'go movetime 200', (info) => {
          if (info.pv.length) last = info;
        });
        if (this.run !== run || move === null) break;
        if (last) node.chances = whiteChances(last, pos.turn);
      }
      drawn();
    }
    const done = this.run === run;
    if (done) this.run = null;
    for (const node of main.slice(1)) {
      const before = node.parent.chances;
      if (before !== undefined && node.chances !== undefined) node.judgement = judge(before, node.chances, node.parent.pos.turn);
    }
    $('#review-game').disabled = false;
    $('#review-progress').textContent = done ? 'reviewed' : 'review stopped';
    return done;
  }
}

/** White's winning chances over `game`'s main line, where the review has them, in `svg`; the cursor's move marked. */
export function drawGraph(svg, game, shown) {
  const main = game.mainline();
  const chances = main.map((node) => node.chances ?? null);
  // An SVG element has no `hidden` property: the attribute it is.
  const hidden = !shown || !chances.some((c) => c !== null);
  svg.toggleAttribute('hidden', hidden);
  if (hidden) return;
  const [width, height] = [400, 80];
  const points = graphPoints(chances, width, height);
  const outline = points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
  const ply = main.indexOf(game.node);
  const cursor = ply >= 0 ? `<line x1="${points[ply][0]}" x2="${points[ply][0]}" y1="0" y2="${height}" class="cursor"/>` : '';
  const marks = main
    .map((node, i) => [node.judgement, points[i]])
    .filter(([nag]) => nag === BLUNDER || nag === MISTAKE)
    .map(([nag, [x, y]]) => `<circle cx="${x}" cy="${y}" r="3" class="${JUDGED[nag]}"/>`)
    .join('');
  svg.innerHTML = `<polygon points="0,${height} ${outline} ${width},${height}" class="white"/><line x1="0" x2="${width}" y1="${height / 2}" y2="${height / 2}" class="middle"/>${cursor}${marks}`;
}
