// A game as a start position and a line of moves, with a cursor: the rules,
// FEN and PGN come from chessops.
import { Chess } from 'chessops/chess';
import { chessgroundDests } from 'chessops/compat';
import { INITIAL_FEN, makeFen, parseFen } from 'chessops/fen';
import { ChildNode, defaultGame, makePgn, parsePgn, startingPosition } from 'chessops/pgn';
import { makeSanAndPlay, parseSan } from 'chessops/san';
import { makeSquare, makeUci, parseSquare, parseUci } from 'chessops/util';
import { withJudgement } from './review.js';

/** chessops's error codes in words, for a person who typed a FEN. */
const REASONS = {
  ERR_FEN: 'it is not a FEN',
  ERR_BOARD: 'the board must be eight ranks of eight squares, separated by /',
  ERR_POCKETS: 'this site plays standard chess, without pockets',
  ERR_TURN: 'the side to move must be w or b',
  ERR_CASTLING: 'the castling rights must be - or some of KQkq',
  ERR_EP_SQUARE: 'the en passant square must be - or a square on the third or sixth rank',
  ERR_REMAINING_CHECKS: 'this site plays standard chess, without a check count',
  ERR_HALFMOVES: 'the halfmove clock must be a number',
  ERR_FULLMOVES: 'the move number must be a number',
  ERR_EMPTY: 'the board is empty',
  ERR_OPPOSITE_CHECK: 'the side not to move is in check',
  ERR_PAWNS_ON_BACKRANK: 'a pawn stands on the first or last rank',
  ERR_KINGS: 'each side needs exactly one king',
  ERR_VARIANT: 'this is not a standard chess position',
};
const reason = (error) => REASONS[error.message] ?? error.message;

/** Parses a FEN into a legal standard-chess position, or throws with the reason in words. */
export function positionFromFen(fen) {
  const setup = parseFen(fen.trim());
  if (setup.isErr) throw new Error(`Invalid FEN: ${reason(setup.error)}.`);
  const pos = Chess.fromSetup(setup.value);
  if (pos.isErr) throw new Error(`Illegal position: ${reason(pos.error)}.`);
  return pos.value;
}

/**
 * One position of the move tree: the move that led to it (none at the
 * root) and the moves played from it, the main one first.
 */
export class MoveNode {
  constructor(pos, move = null, parent = null) {
    this.pos = pos;
    /** `{ uci, san, from, to }`, or null at the root. */
    this.move = move;
    this.parent = parent;
    /** The moves tried from here: `children[0]` continues the main line. */
    this.children = [];
    /** PGN comments after the move (at the root: before the first move), and its NAGs (`?!` is 6). */
    this.comments = [];
    this.nags = [];
    /** The engine's judgement of the move from a review (a NAG: `?!` 6, `?` 2, `??` 4), or null. */
    this.judgement = null;
  }

  /** The plies from the root. */
  get ply() {
    let ply = 0;
    for (let node = this; node.parent; node = node.parent) ply++;
    return ply;
  }

  /** Whether this move is the first choice of its parent (a main move of its line). */
  get isFirst() {
    return !this.parent || this.parent.children[0] === this;
  }

  /** The child reached by `uci`, if it was played here. */
  child(uci) {
    return this.children.find((c) => c.move.uci === uci);
  }
}

/**
 * A game as a tree of moves, as lichess keeps it: a move played in the
 * middle of a line starts a side line instead of deleting the rest. The
 * cursor stands on one line of the tree (`line`, root to leaf), at `ply`.
 */
export class Game {
  constructor(fen = INITIAL_FEN) {
    this.reset(fen);
  }

  /** Starts again from `fen`, with no moves. */
  reset(fen = INITIAL_FEN) {
    const start = positionFromFen(fen);
    this.startFen = makeFen(start.toSetup());
    this.root = new MoveNode(start);
    /** The line the cursor is on, root first: it goes on along first children. */
    this.line = [this.root];
    this.ply = 0;
    this.headers = new Map();
    /** How the game ended other than on the board (resigned, agreed drawn, out of time), or null. */
    this.end = null;
  }

  /** Ends the game at its main line's last move: `result` `1-0`, `0-1` or `1/2-1/2`, and why in words. */
  finish(result, reason) {
    this.end = { result, reason };
  }

  /** The moves of the cursor's line, `{ uci, san, from, to }` each. */
  get moves() {
    return this.line.slice(1).map((node) => node.move);
  }

  /** The positions of the cursor's line: `positions[i + 1]` follows `moves[i]`. */
  get positions() {
    return this.line.map((node) => node.pos);
  }

  /** The node at the cursor. */
  get node() {
    return this.line[this.ply];
  }

  /** The position at the cursor. */
  get pos() {
    return this.node.pos;
  }

  get fen() {
    return makeFen(this.pos.toSetup());
  }

  get turn() {
    return this.pos.turn;
  }

  /** Legal destinations per origin square, for chessground. */
  dests() {
    return this.outcome() ? new Map() : chessgroundDests(this.pos);
  }

  /** Whether moving from `from` to `to` is a pawn reaching the last rank. */
  isPromotion(from, to) {
    const piece = this.pos.board.get(parseSquare(from));
    return piece?.role === 'pawn' && (to[1] === '8' || to[1] === '1');
  }

  /**
   * Plays a UCI move (`e2e4`, `e7e8q`) at the cursor. A move already in the
   * tree there is followed; a new one is added after the existing ones, as a
   * side line in the middle of a game. Returns false, and changes nothing,
   * for an illegal move.
   */
  play(uci) {
    const move = parseUci(uci);
    if (!move || !this.pos.isLegal(move) || this.outcome()) return false;
    const here = this.node;
    let next = here.child(makeUci(move));
    if (!next) {
      const pos = here.pos.clone();
      const san = makeSanAndPlay(pos, move);
      const [from, to] = [makeSquare(move.from), makeSquare(move.to)];
      next = new MoveNode(pos, { uci: makeUci(move), san, from, to }, here);
      here.children.push(next);
    }
    this.goTo(next);
    return true;
  }

  /** The cursor's place in the tree: the index among its parent's moves of each move from the root. */
  path() {
    return this.line.slice(1, this.ply + 1).map((node) => node.parent.children.indexOf(node));
  }

  /** Puts the cursor where `path()` said, as far as the tree still has it. */
  followPath(path) {
    let node = this.root;
    for (const i of path) {
      const next = node.children[i];
      if (!next) break;
      node = next;
    }
    this.goTo(node);
  }

  /** Moves the cursor to `ply` of its line (clamped). */
  go(ply) {
    this.ply = Math.max(0, Math.min(this.line.length - 1, ply));
  }

  /** Puts the cursor on `node`: its line runs from the root through it, then along first children. */
  goTo(node) {
    const path = [];
    for (let n = node; n; n = n.parent) path.push(n);
    path.reverse();
    this.ply = path.length - 1;
    for (let n = node.children[0]; n; n = n.children[0]) path.push(n);
    this.line = path;
  }

  /** Drops the last `n` moves of the cursor's line from the tree (taking back in a game). */
  takeBack(n = 1) {
    this.end = null;
    const keep = Math.max(0, this.line.length - 1 - n);
    const dropped = this.line[keep + 1];
    if (dropped) this.#detach(dropped);
    this.line.length = keep + 1;
    this.ply = keep;
  }

  /**
   * Promotes `node`'s side line one step towards the main line: at the
   * nearest branch where it is not the first choice, it becomes the first.
   */
  promote(node) {
    let n = node;
    while (n.parent && n.isFirst) n = n.parent;
    if (!n.parent) return false;
    const siblings = n.parent.children;
    siblings.splice(siblings.indexOf(n), 1);
    siblings.unshift(n);
    this.goTo(this.node);
    return true;
  }

  /** Deletes `node` and every move after it; the cursor steps back if it was there. */
  delete(node) {
    if (!node.parent) return false;
    const parent = node.parent;
    const onLine = this.line[node.ply] === node;
    this.#detach(node);
    if (onLine && this.ply >= node.ply) this.goTo(parent);
    else this.goTo(this.node);
    return true;
  }

  #detach(node) {
    const siblings = node.parent.children;
    siblings.splice(siblings.indexOf(node), 1);
  }

  /** The last move before the cursor, as chessground's `lastMove`. */
  lastMove() {
    const m = this.node.move;
    return m ? [m.from, m.to] : undefined;
  }

  /** The UCI `position` command for the cursor. */
  uciPosition() {
    return this.uciPositionOf(this.node);
  }

  /** The UCI `position` command for any `node` of the tree: the start, then the moves to it. */
  uciPositionOf(node) {
    const moves = [];
    for (let n = node; n.parent; n = n.parent) moves.push(n.move.uci);
    moves.reverse();
    const start = this.startFen === INITIAL_FEN ? 'startpos' : `fen ${this.startFen}`;
    return `position ${start}${moves.length ? ` moves ${moves.join(' ')}` : ''}`;
  }

  /** The main line: the root, then first children to the end. */
  mainline() {
    const line = [this.root];
    for (let n = this.root.children[0]; n; n = n.children[0]) line.push(n);
    return line;
  }

  /**
   * How the game stands at the cursor: null while it goes on, else
   * `{ result: '1-0' | '0-1' | '1/2-1/2', reason }`.
   */
  outcome() {
    const board = Game.#outcome(this.positions, this.ply);
    if (board || !this.end) return board;
    return this.node === this.mainline().at(-1) ? this.end : null;
  }

  /** How the main line ends: its last position's outcome, else how the game was finished, else null. */
  finalOutcome() {
    const main = this.mainline();
    return Game.#outcome(main.map((node) => node.pos), main.length - 1) ?? this.end;
  }

  /** The outcome at `positions[ply]`, with the positions before it for repetitions. */
  static #outcome(positions, ply) {
    const pos = positions[ply];
    if (pos.isCheckmate()) return { result: pos.turn === 'white' ? '0-1' : '1-0', reason: 'checkmate' };
    if (pos.isStalemate()) return { result: '1/2-1/2', reason: 'stalemate' };
    if (pos.isInsufficientMaterial()) return { result: '1/2-1/2', reason: 'insufficient material' };
    if (pos.halfmoves >= 100) return { result: '1/2-1/2', reason: 'fifty-move rule' };
    const key = (p) => makeFen(p.toSetup()).split(' ').slice(0, 4).join(' ');
    const here = key(pos);
    let seen = 0;
    for (let i = ply; i >= 0; i--) {
      if (key(positions[i]) === here) seen++;
      if (positions[i].halfmoves === 0) break;
    }
    if (seen >= 3) return { result: '1/2-1/2', reason: 'threefold repetition' };
    return null;
  }

  /**
   * The moves of a UCI line from `fen`, as far as they are legal: each
   * `{ uci, san, text, fen, from, to }`, `text` with its move number where
   * lines show one, `fen` the position after it.
   */
  static lineMoves(fen, ucis) {
    const pos = positionFromFen(fen);
    const moves = [];
    for (const uci of ucis) {
      const move = parseUci(uci);
      if (!move || !pos.isLegal(move)) break;
      const number = pos.turn === 'white' ? `${pos.fullmoves}. ` : moves.length === 0 ? `${pos.fullmoves}… ` : '';
      const san = makeSanAndPlay(pos, move);
      moves.push({ uci, san, text: number + san, fen: makeFen(pos.toSetup()), from: uci.slice(0, 2), to: uci.slice(2, 4) });
    }
    return moves;
  }

  /**
   * The position with the other side to move (no en passant), for "show
   * threat": what the opponent would play if it were its turn. Null where
   * the side to move is in check (passing is no answer to a check).
   */
  threatFen() {
    if (this.pos.isCheck()) return null;
    const setup = this.pos.toSetup();
    setup.turn = setup.turn === 'white' ? 'black' : 'white';
    setup.epSquare = undefined;
    const flipped = Chess.fromSetup(setup);
    return flipped.isOk ? makeFen(flipped.value.toSetup()) : null;
  }

  /** The game as PGN, with `headers` (Seven Tag Roster order first). */
  pgn(headers = {}) {
    const game = defaultGame();
    const outcome = this.finalOutcome();
    const now = new Date();
    const date = `${now.getFullYear()}.${String(now.getMonth() + 1).padStart(2, '0')}.${String(now.getDate()).padStart(2, '0')}`;
    const tags = { Event: 'DeepChess game', Site: globalThis.location?.host || '?', Date: date, Round: '-', White: '?', Black: '?', ...Object.fromEntries(this.headers), ...headers };
    tags.Result = outcome?.result ?? '*';
    if (this.startFen !== INITIAL_FEN) {
      tags.SetUp = '1';
      tags.FEN = this.startFen;
    }
    for (const [k, v] of Object.entries(tags)) game.headers.set(k, v);
    if (this.root.comments.length) game.comments = [...this.root.comments];
    // Every side line goes out as a PGN variation, in the tree's order, with its comments and NAGs.
    const copy = (from, to) => {
      for (const child of from.children) {
        const data = { san: child.move.san };
        if (child.comments.length) data.comments = [...child.comments];
        const nags = withJudgement(child.nags, child.judgement);
        if (nags.length) data.nags = nags;
        const out = new ChildNode(data);
        to.children.push(out);
        copy(child, out);
      }
    };
    copy(this.root, game.moves);
    return makePgn(game);
  }

  /**
   * Replaces the game by the first game of `text`, its comments and NAGs
   * kept, with the cursor on its last move; throws on a bad PGN or move.
   */
  loadPgn(text) {
    const [parsed] = parsePgn(text);
    if (!parsed) throw new Error('no game in this PGN');
    const start = startingPosition(parsed.headers);
    if (start.isErr) throw new Error(`bad starting position: ${start.error.message}`);
    const game = new Game(makeFen(start.value.toSetup()));
    // The whole tree, side lines included; an illegal move anywhere rejects the PGN.
    const add = (from, at) => {
      for (const child of from.children) {
        game.goTo(at);
        const move = parseSan(game.pos, child.data.san);
        if (!move) throw new Error(`illegal move ${game.pos.fullmoves}${game.turn === 'white' ? '.' : '…'} ${child.data.san}`);
        game.play(makeUci(move));
        // A comment before a side line's first move goes with that move.
        game.node.comments = [...(child.data.startingComments ?? []), ...(child.data.comments ?? [])];
        game.node.nags = [...(child.data.nags ?? [])];
        add(child, game.node);
      }
    };
    add(parsed.moves, game.root);
    game.root.comments = [...(parsed.comments ?? [])];
    for (const [k, v] of parsed.headers) if (!['Result', 'FEN', 'SetUp'].includes(k)) game.headers.set(k, v);
    game.goTo(game.mainline().at(-1));
    Object.assign(this, game);
  }
}
