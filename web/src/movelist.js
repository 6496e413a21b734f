// The move list: the game's move tree as lichess lists it, the player's own
// annotation glyphs beside the review's judgements.
import { GLYPHS, JUDGED, withJudgement } from './review.js';

/** Whether `node` lies on the main line (first children all the way from the root). */
export function inMain(node) {
  for (let n = node; n.parent; n = n.parent) if (!n.isFirst) return false;
  return true;
}

/**
 * Scrolls the list so that `item` is in view, and nothing else: unlike
 * `scrollIntoView`, which scrolls every ancestor, the page too (on a phone
 * the board would leave the screen as the game grows).
 */
function reveal(list, item) {
  if (!item) return;
  const box = list.getBoundingClientRect();
  const at = item.getBoundingClientRect();
  if (at.top < box.top) list.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
}

/**
 * Fills `list` with `game`'s move tree: the main line in two columns (move
 * number, White, Black), and where a main move has alternatives, a block
 * across the columns right after it with each side line in parentheses
 * (and theirs nested inline); the game's result after its last move, as a
 * score sheet has it. The cursor's move is marked, and the moves of the
 * cursor's line too; a click on a move calls `pick` with its node.
 */
export function renderMoves(list, game, pick) {
  list.textContent = '';
  const onLine = new Set(game.line);
  const current = game.node;
  const add = (to, className, text) => {
    const element = document.createElement('span');
    element.className = className;
    element.textContent = text;
    to.append(element);
    return element;
  };
  const moveButton = (to, node) => {
    const move = document.createElement('button');
    move.className = ['move', node === current && 'current', onLine.has(node) && 'on-line', !inMain(node) && 'side']
      .filter(Boolean)
      .join(' ');
    // The player's own glyphs (from a PGN), then the review's judgement unless
    // the player judged the move already, coloured as lichess colours them.
    const nags = withJudgement(node.nags, node.judgement);
    move.textContent = node.move.san + nags.map((n) => GLYPHS[n] ?? '').join('');
    for (const n of nags) if (JUDGED[n]) move.classList.add(JUDGED[n]);
    // Where the player's own mark stands, the review's is in the tooltip.
    const unshown = node.judgement && !nags.includes(node.judgement);
    move.title = unshown ? `the review: ${GLYPHS[node.judgement]}` : inMain(node) ? '' : 'side line';
    move.addEventListener('click', () => pick(node));
    to.append(move);
  };
  // A side line inline, from `first` on (a node whose earlier siblings were shown).
  const inline = (to, first) => {
    let needNumber = true;
    for (let node = first; node; node = node.children[0]) {
      const before = node.parent.pos;
      if (before.turn === 'white' || needNumber) add(to, 'number', before.turn === 'white' ? `${before.fullmoves}.` : `${before.fullmoves}…`);
      moveButton(to, node);
      needNumber = false;
      for (const alternative of node.isFirst ? node.parent.children.slice(1) : []) {
        add(to, 'paren', '(');
        inline(to, alternative);
        add(to, 'paren', ')');
        needNumber = true;
      }
    }
  };
  // The main line in rows of two; `open`: a row waits for Black's move.
  let open = false;
  for (const node of game.mainline().slice(1)) {
    const before = node.parent.pos;
    if (before.turn === 'white') {
      add(list, 'index', String(before.fullmoves));
      open = true;
    } else if (!open) {
      add(list, 'index', String(before.fullmoves));
      add(list, 'filler', '…');
    }
    moveButton(list, node);
    open = before.turn === 'white';
    const alternatives = node.parent.children.slice(1);
    if (alternatives.length) {
      if (open) add(list, 'filler', '…');
      open = false;
      const block = add(list, 'interrupt', '');
      for (const alternative of alternatives) {
        add(block, 'paren', '(');
        inline(block, alternative);
        add(block, 'paren', ')');
      }
    }
  }
  const final = game.finalOutcome();
  if (final) add(list, 'result', final.result.replace('1/2-1/2', '½–½'));
  reveal(list, list.querySelector('.current'));
}
