// The analysis panel: the engine's lines live, best first, each with its
// score and depth before its moves, and their first moves as arrows on the
// board. A hovered move shows the position after it on a small board; a
// clicked one plays the line up to it. In threat mode the lines are the
// other side's, and only shown.
import { Chessground } from 'chessground';
import { $ } from './dom.js';
import { Game } from './game.js';
import { lineValue, resetEvalBar, scoreText, setEvalBar } from './score.js';

export class Analysis {
  /**
   * `board`: the main board, for the arrows; `orientation()`: the side at
   * its bottom, for the small board; `play(ucis, fen)`: a clicked line's
   * moves up to the click, from the position `fen` that the line was for.
   */
  constructor(board, orientation, play) {
    this.board = board;
    this.orientation = orientation;
    /** multipv → parsed info line (and 'progress' → the last progress line). */
    this.lines = new Map();
    /** The search whose reports the panel shows (a fresh object per search; null: none). */
    this.run = null;
    this.preview = null;
    const list = $('#pv-lines');
    // On the press, not the click: the lines are redrawn with every report, and a
    // click needs the press and the release on the same element.
    list.addEventListener('mousedown', (event) => {
      if (event.button !== 0) return;
      const move = event.target.closest('.pv-move');
      if (!move || list.classList.contains('threat')) return;
      this.hidePreview();
      play(move.dataset.ucis.split(' '), move.closest('li').dataset.fen);
    });
    list.addEventListener('mouseover', (event) => this.showPreview(event.target.closest('.pv-move')));
    list.addEventListener('mouseleave', () => this.hidePreview());
  }

  /** Empties the panel and the arrows; the running search's reports are dropped from here on. */
  clear() {
    this.run = null;
    this.lines = new Map();
    $('#pv-lines').textContent = '';
    $('#analysis-stats').textContent = '';
    $('#analysis-score').textContent = '';
    this.hidePreview();
    this.board.setAutoShapes([]);
  }

  /**
   * Searches `position` (the UCI `position` line of `fen`, `turn` to move)
   * for `count` lines with `searcher`, and shows this search's reports while
   * `live()` holds. Until the previous search has stopped, its last reports
   * still arrive for the same position: only this search's own fill the list.
   */
  start(searcher, { position, fen, turn, threat, count, mcts, live }) {
    if (threat) resetEvalBar(null);
    const run = (this.run = {});
    searcher.engine.send(`setoption name MultiPV value ${count}`);
    searcher.start(position, 'go infinite', (info) => {
      if (run !== this.run || !live()) return;
      if (info.multipv > count) return;
      if (info.pv.length) this.lines.set(info.multipv, info);
      // A progress line (no pv) updates the stats between lines.
      else if (this.lines.size) this.lines.set('progress', info);
      if (this.lines.size) this.render(fen, turn, threat, mcts);
    });
  }

  render(fen, turn, threat, mcts) {
    // Lines arrive one at a time and some are a depth older than others:
    // order them by value (then by index), and show each line's depth.
    const latest = [...this.lines.values()].reduce((a, b) => (b.nodes > a.nodes ? b : a));
    const sorted = [...this.lines.values()]
      .filter((info) => info.pv.length)
      .sort((a, b) => lineValue(b) - lineValue(a) || a.multipv - b.multipv);
    const best = sorted[0];
    // MCTS counts playouts, not nodes, and has no depth to speak of.
    const unit = mcts ? 'playouts' : 'nodes';
    const depth = mcts ? '' : `depth ${latest.depth}/${latest.seldepth ?? latest.depth} · `;
    $('#analysis-stats').textContent =
      `${threat ? 'threat · ' : ''}${depth}${Math.round(latest.nps / 1000)}k ${unit}/s · ${latest.nodes.toLocaleString('en')} ${unit}`;
    $('#analysis-score').textContent = threat ? '' : scoreText(best, turn);
    if (!threat) setEvalBar(best, turn);
    const list = $('#pv-lines');
    list.classList.toggle('threat', threat);
    list.textContent = '';
    for (const info of sorted) list.append(lineItem(fen, turn, info, mcts));
    this.board.setAutoShapes(
      sorted.map((info, i) => ({
        orig: info.pv[0].slice(0, 2),
        dest: info.pv[0].slice(2, 4),
        brush: threat ? (i === 0 ? 'red' : 'paleRed') : i === 0 ? 'green' : 'paleBlue',
      })),
    );
  }

  /** The small board with the position after a hovered move, below it and inside the window. */
  showPreview(move) {
    if (!move) return;
    const box = $('#pv-preview');
    const last = move.dataset.last;
    const config = { fen: move.dataset.fen, orientation: this.orientation(), lastMove: [last.slice(0, 2), last.slice(2, 4)] };
    box.hidden = false;
    if (!this.preview) {
      this.preview = Chessground(box, { viewOnly: true, coordinates: false, animation: { enabled: false }, drawable: { enabled: false }, ...config });
    } else this.preview.set(config);
    const at = move.getBoundingClientRect();
    const size = box.offsetWidth;
    box.style.left = `${Math.max(4, Math.min(window.innerWidth - size - 4, at.left))}px`;
    box.style.top = `${at.bottom + size + 8 < window.innerHeight ? at.bottom + 4 : Math.max(4, at.top - size - 4)}px`;
  }

  hidePreview() {
    $('#pv-preview').hidden = true;
  }
}

/** One line: its score, its depth (not for MCTS), then its moves, each carrying what a click or hover needs. */
function lineItem(fen, turn, info, mcts) {
  const item = document.createElement('li');
  item.dataset.fen = fen;
  const score = document.createElement('strong');
  score.textContent = scoreText(info, turn);
  const depth = document.createElement('span');
  depth.className = 'depth';
  depth.textContent = `d${info.depth}`;
  const moves = document.createElement('span');
  moves.className = 'pv';
  for (const [i, move] of Game.lineMoves(fen, info.pv).entries()) {
    const span = document.createElement('span');
    span.className = 'pv-move';
    span.textContent = move.text;
    span.dataset.index = String(i);
    span.dataset.fen = move.fen;
    span.dataset.ucis = info.pv.slice(0, i + 1).join(' ');
    span.dataset.last = move.from + move.to;
    moves.append(span, ' ');
  }
  item.append(score, ' ', ...(mcts ? [] : [depth, ' ']), moves);
  return item;
}
