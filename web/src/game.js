// A game as a start position and a line of moves, with a cursor: the rules,
// FEN and PGN come from chessops.
import { Chess } from 'chessops/chess';
import { chessgroundDests } from 'chessops/compat';
import { INITIAL_FEN, makeFen, parseFen } from 'chessops/fen';
import { ChildNode, defaultGame, makePgn, parsePgn, startingPosition } from 'chessops/pgn';
import { makeSanAndPlay, parseSan } from 'chessops/san';
import { makeSquare, makeUci, parseSquare, parseUci } from 'chessops/util';

/** Parses a FEN into a legal standard-chess position, or throws with the reason. */
export function positionFromFen(fen) {
  const setup = parseFen(fen.trim());
  if (setup.isErr) throw new Error(`invalid FEN: ${setup.error.message}`);
  const pos = Chess.fromSetup(setup.value);
  if (pos.isErr) throw new Error(`illegal position: ${pos.error.message}`);
  return pos.value;
}

export class Game {
  constructor(fen = INITIAL_FEN) {
    this.reset(fen);
  }

  /** Starts again from `fen`, with no moves. */
  reset(fen = INITIAL_FEN) {
    const start = positionFromFen(fen);
    this.startFen = makeFen(start.toSetup());
    this.positions = [start];
    /** `{ uci, san, from, to }` per move; `positions[i + 1]` follows `moves[i]`. */
    this.moves = [];
    this.ply = 0;
    this.headers = new Map();
  }

  /** The position at the cursor. */
  get pos() {
    return this.positions[this.ply];
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
   * Plays a UCI move (`e2e4`, `e7e8q`) at the cursor, dropping any moves
   * after it. Returns false, and changes nothing, for an illegal move.
   */
  play(uci) {
    const move = parseUci(uci);
    if (!move || !this.pos.isLegal(move) || this.outcome()) return false;
    const pos = this.pos.clone();
    const san = makeSanAndPlay(pos, move);
    this.positions.length = this.ply + 1;
    this.moves.length = this.ply;
    this.positions.push(pos);
    const [from, to] = [makeSquare(move.from), makeSquare(move.to)];
    this.moves.push({ uci: makeUci(move), san, from, to });
    this.ply++;
    return true;
  }

  /** Moves the cursor to `ply` (clamped). */
  go(ply) {
    this.ply = Math.max(0, Math.min(this.moves.length, ply));
  }

  /** Drops the last `n` moves. */
  takeBack(n = 1) {
    const ply = Math.max(0, this.moves.length - n);
    this.positions.length = ply + 1;
    this.moves.length = ply;
    this.ply = ply;
  }

  /** The last move before the cursor, as chessground's `lastMove`. */
  lastMove() {
    const m = this.moves[this.ply - 1];
    return m ? [m.from, m.to] : undefined;
  }

  /** The UCI `position` command for the cursor. */
  uciPosition() {
    const moves = this.moves.slice(0, this.ply).map((m) => m.uci);
    const start = this.startFen === INITIAL_FEN ? 'startpos' : `fen ${this.startFen}`;
    return `position ${start}${moves.length ? ` moves ${moves.join(' ')}` : ''}`;
  }

  /**
   * How the game stands at the cursor: null while it goes on, else
   * `{ result: '1-0' | '0-1' | '1/2-1/2', reason }`.
   */
  outcome() {
    const pos = this.pos;
    if (pos.isCheckmate()) return { result: pos.turn === 'white' ? '0-1' : '1-0', reason: 'checkmate' };
    if (pos.isStalemate()) return { result: '1/2-1/2', reason: 'stalemate' };
    if (pos.isInsufficientMaterial()) return { result: '1/2-1/2', reason: 'insufficient material' };
    if (pos.halfmoves >= 100) return { result: '1/2-1/2', reason: 'fifty-move rule' };
    const key = (p) => makeFen(p.toSetup()).split(' ').slice(0, 4).join(' ');
    const here = key(pos);
    let seen = 0;
    for (let i = this.ply; i >= 0; i--) {
      if (key(this.positions[i]) === here) seen++;
      if (this.positions[i].halfmoves === 0) break;
    }
    if (seen >= 3) return { result: '1/2-1/2', reason: 'threefold repetition' };
    return null;
  }

  /** The moves in SAN, from a position given as a FEN, along a UCI line. */
  static sanLine(fen, ucis) {
    const pos = positionFromFen(fen);
    const sans = [];
    for (const uci of ucis) {
      const move = parseUci(uci);
      if (!move || !pos.isLegal(move)) break;
      const number = pos.turn === 'white' ? `${pos.fullmoves}. ` : sans.length === 0 ? `${pos.fullmoves}… ` : '';
      sans.push(number + makeSanAndPlay(pos, move));
    }
    return sans.join(' ');
  }

  /** The game as PGN, with `headers` (Seven Tag Roster order first). */
  pgn(headers = {}) {
    const game = defaultGame();
    const outcome = this.moves.length === this.ply ? this.outcome() : null;
    const now = new Date();
    const date = `${now.getFullYear()}.${String(now.getMonth() + 1).padStart(2, '0')}.${String(now.getDate()).padStart(2, '0')}`;
    const tags = { Event: 'DeepChess game', Site: self.location?.host || '?', Date: date, Round: '-', White: '?', Black: '?', ...Object.fromEntries(this.headers), ...headers };
    tags.Result = outcome?.result ?? '*';
    if (this.startFen !== INITIAL_FEN) {
      tags.SetUp = '1';
      tags.FEN = this.startFen;
    }
    for (const [k, v] of Object.entries(tags)) game.headers.set(k, v);
    let node = game.moves;
    for (const m of this.moves) {
      const child = new ChildNode({ san: m.san });
      node.children.push(child);
      node = child;
    }
    return makePgn(game);
  }

  /** Replaces the game by the first game of `text`; throws on a bad PGN or move. */
  loadPgn(text) {
    const [parsed] = parsePgn(text);
    if (!parsed) throw new Error('no game in this PGN');
    const start = startingPosition(parsed.headers);
    if (start.isErr) throw new Error(`bad starting position: ${start.error.message}`);
    const game = new Game(makeFen(start.value.toSetup()));
    for (const node of parsed.moves.mainline()) {
      const move = parseSan(game.pos, node.san);
      if (!move) throw new Error(`illegal move ${game.pos.fullmoves}${game.turn === 'white' ? '.' : '…'} ${node.san}`);
      game.play(makeUci(move));
    }
    for (const [k, v] of parsed.headers) if (!['Result', 'FEN', 'SetUp'].includes(k)) game.headers.set(k, v);
    Object.assign(this, game);
    this.ply = 0;
  }
}
