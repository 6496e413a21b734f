// The page's controller: the one place that holds the page's state (the
// game, the mode, the player's side, the engines, the clock) and draws the
// page from it after every change (`update`). The views, the analysis, the
// review and the engine client are in their own modules; the controls
// (web/src/controls.js) call the methods here.
import { Chessground } from 'chessground';
import { Analysis } from './analysis.js';
import { playGo, renderClock } from './clock.js';
import { $ } from './dom.js';
import { Game } from './game.js';
import { inMain, renderMoves } from './movelist.js';
import { SecondEngine, pickedName } from './networks.js';
import { openingAt } from './openings.js';
import { pageSession } from './page-session.js';
import { Promotion } from './promotion.js';
import { Reviewer, drawGraph } from './reviewer.js';
import { resetEvalBar, setEvalBar } from './score.js';
import { saveSession } from './session.js';
import { perMoveGo, renderSettings } from './settings.js';
import { statusText, thinkingText } from './status-line.js';
import { EngineStatus } from './status.js';

export class App {
  constructor() {
    this.game = new Game();
    this.mode = 'play';
    this.player = 'white';
    this.orientation = 'white';
    /** Replaced whenever the game changes under a running engine move, so its result is dropped. */
    this.token = {};
    this.watching = false;
    /** The token of the engine move being searched, if any. */
    this.thinking = null;
    /** The Network choice of the network that plays ('' the built-in one). */
    this.playingNetwork = '';
    /**
     * The network the page plays or is loading, or the last visit's until the engine is up to
     * load it: what a reload brings back, so that one during a load keeps the pick.
     */
    this.chosenNetwork = '';
    /** The play mode's clock, if the game has one. */
    this.clock = null;
    /** The engine's last score in play, from its own side (`{ cp }` or `{ mate }`), for a draw offer. */
    this.engineScore = null;
    /** The engine's searcher once it has started. */
    this.searcher = null;
    this.status = new EngineStatus($('#engine-status'), $('#engine-details'));
    this.black = new SecondEngine((message) => this.status.say(message));
    this.reviewer = new Reviewer();
    this.board = Chessground($('#board'), {
      movable: { free: false, showDests: true, events: { after: (orig, dest) => this.onBoardMove(orig, dest) } },
      premovable: { enabled: false },
      highlight: { lastMove: true, check: true },
      animation: { duration: 150 },
    });
    this.analysis = new Analysis(this.board, () => this.orientation, (ucis, fen) => this.playLine(ucis, fen));
    // A piece picked plays the promotion; none (Escape, a click beside), the pawn goes back.
    this.promotion = new Promotion((move) => (move ? this.userMove(move) : this.update()));
  }

  /** Draws the page from the state: the board, the status, the clocks, the moves, the settings; starts what should run. */
  update() {
    const { game, mode } = this;
    const outcome = game.outcome();
    const atEnd = game.ply === game.moves.length;
    let movable;
    if (mode === 'analyse') movable = game.turn;
    else if (mode === 'play' && atEnd && !outcome && game.turn === this.player && !this.thinking) movable = this.player;
    this.board.set({
      fen: game.fen,
      orientation: this.orientation,
      turnColor: game.turn,
      check: game.pos.isCheck() ? game.turn : false,
      lastMove: game.lastMove(),
      movable: { color: movable, dests: movable ? game.dests() : new Map() },
    });
    $('#status').textContent = statusText(this, outcome);
    const playing = mode === 'play' && atEnd && !outcome;
    $('#resign').disabled = !playing || game.moves.length < 2;
    $('#offer-draw').disabled = !playing || game.moves.length < 2;
    if (outcome || mode !== 'play') this.clock?.pause();
    else if (this.clock && atEnd && game.moves.length && !this.clock.running) this.clock.start(game.turn);
    this.renderClocks();
    $('#fen').value = game.fen;
    this.renderMoves();
    renderSettings(this.status);
    if (mode === 'analyse') this.analyse();
    else {
      this.board.setAutoShapes([]);
      if (mode === 'play' && this.engineToMove() && !this.thinking && this.searcher) this.engineMove();
    }
    this.remember();
  }

  /** Keeps the page for the next visit. */
  remember() {
    saveSession(pageSession(this));
  }

  /** The name of the network that plays `color`: the Network choice's, or, watching two networks, Black's from *Black plays*. */
  networkName(color) {
    if (this.mode === 'watch' && color === 'black' && $('#watch-black').value) return pickedName($('#watch-black'));
    return pickedName($('#network')) || 'DeepChess';
  }

  /** The search that plays `color`: the Search choice's, or Black's engine's (its network's own). */
  searchOf(color) {
    if (this.mode === 'watch' && color === 'black' && $('#watch-black').value) return this.black.search;
    return $('#search').value;
  }

  /** The move list, its side-line tools, the opening's name and the review's graph. */
  renderMoves() {
    const { game } = this;
    renderMoves($('#moves'), game, (node) => this.navigateTo(node));
    // In analysis: promote a side line, or delete the moves from the cursor on.
    $('#line-tools').hidden = this.mode !== 'analyse' || !game.node.parent;
    $('#promote-line').disabled = inMain(game.node);
    const opening = openingAt(game.node);
    $('#opening').textContent = opening ? `${opening.eco} ${opening.name}` : '';
    this.drawGraph();
  }

  /** The review's graph of the main line, shown in analysis. */
  drawGraph() {
    drawGraph($('#graph'), this.game, this.mode === 'analyse');
  }

  /** The clocks beside the board's sides; a side whose time ran out loses, or draws where the other cannot mate. */
  renderClocks() {
    const { clock, game } = this;
    $('#clocks').hidden = !clock || this.mode !== 'play';
    if (!clock) return;
    const flagged = clock.flagged();
    if (flagged) {
      clock.pause();
      const other = flagged === 'white' ? 'black' : 'white';
      const who = flagged === this.player ? 'you' : this.networkName(flagged);
      this.token = {};
      this.searcher?.cancel();
      if (game.pos.hasInsufficientMaterial(other)) game.finish('1/2-1/2', `${who} ran out of time, and the other side cannot mate`);
      else game.finish(other === 'white' ? '1-0' : '0-1', `${who} ran out of time`);
      this.update();
      return;
    }
    const top = this.orientation === 'white' ? 'black' : 'white';
    const name = (color) => (color === this.player ? 'You' : this.networkName(color));
    renderClock($('#clock-top'), clock, top, name(top));
    renderClock($('#clock-bottom'), clock, this.orientation, name(this.orientation));
  }

  onBoardMove(orig, dest) {
    if (this.game.isPromotion(orig, dest)) this.promotion.show(orig + dest, this.orientation, this.game.turn);
    else this.userMove(orig + dest);
  }

  userMove(uci) {
    const { game } = this;
    this.token = {};
    const atEnd = game.ply === game.moves.length;
    if (!game.play(uci)) return this.update();
    if (this.mode === 'play' && atEnd) this.moved();
    this.update();
    if (this.mode === 'play' && !game.outcome()) this.engineMove();
  }

  /** Plays a line of the analysis up to a clicked move, if it is still the position's. */
  playLine(ucis, fen) {
    if (fen !== this.game.fen) return;
    this.token = {};
    this.searcher?.cancel();
    for (const uci of ucis) this.game.play(uci);
    this.update();
  }

  /** Asks the engine for a move in play and watch modes, and plays it. */
  async engineMove() {
    const { game } = this;
    if (!this.searcher || this.thinking) return;
    const mine = (this.token = {});
    this.thinking = mine;
    const fixed = perMoveGo($('#per-move').value);
    const go = this.mode === 'watch' ? fixed ?? $('#watch-time').value : playGo(fixed ?? $('#strength').value, this.clock, game.turn);
    this.update();
    // Watching two networks, Black's moves come from the second engine.
    const mover = this.mode === 'watch' && game.turn === 'black' && $('#watch-black').value ? await this.blackSearcher() : this.searcher;
    if (mine !== this.token || !mover) {
      // Stopped while the second engine loaded, or it could not load.
      this.thinking = null;
      if (mine === this.token) this.stopWatching();
      this.update();
      return;
    }
    const move = await mover.start(game.uciPosition(), go, (info) => {
      if (this.mode === 'play' && info.pv.length) this.engineScore = info.mate !== undefined ? { mate: info.mate } : { cp: info.cp };
      if (this.mode !== 'analyse' && info.pv.length) {
        $('#status').textContent = thinkingText(this, info);
        setEvalBar(info, game.turn);
      }
    });
    this.thinking = null;
    if (mine !== this.token) {
      // The game or the mode changed meanwhile: look again at who is to move.
      this.update();
      return;
    }
    if (move) {
      game.go(game.moves.length);
      if (game.play(move) && this.mode === 'play') this.moved();
    }
    this.token = {};
    this.update();
    if (this.mode === 'watch' && this.watching && !game.outcome()) this.engineMove();
    else if (game.outcome()) this.stopWatching();
  }

  /** The second engine with the *Black plays* network; null where it cannot load (the choice goes back to the same network). */
  async blackSearcher() {
    const searcher = await this.black.get($('#watch-black').value, pickedName($('#watch-black')));
    if (!searcher) {
      $('#watch-black').value = '';
      this.remember();
    }
    return searcher;
  }

  engineToMove() {
    const { game } = this;
    if (game.outcome() || game.ply !== game.moves.length) return false;
    return this.mode === 'watch' ? this.watching : this.mode === 'play' && game.turn !== this.player;
  }

  /**
   * A move was made at the end of the game in play: a running clock passes
   * to the other side. (`update` starts a stopped one for the side to move,
   * so White's first move is free.)
   */
  moved() {
    $('#play-note').textContent = '';
    if (this.clock?.running) this.clock.press();
  }

  /** Starts the analysis of the position on the board (the threat's, with *Show threat*), or stops the engine. */
  analyse() {
    const { game, searcher } = this;
    // Analysis wants the engine: a review under way stops, keeping what it saw.
    this.reviewer.stop();
    this.analysis.clear();
    if (!searcher) return;
    const outcome = game.outcome();
    // "Show threat": the best move for the side not to move, as if it were its turn (none in check).
    const threatFen = $('#threat').checked ? game.threatFen() : null;
    $('#threat').disabled = game.pos.isCheck() || !!outcome;
    if (!$('#analysis-on').checked || outcome) {
      searcher.cancel();
      resetEvalBar(outcome);
      return;
    }
    const threat = threatFen !== null;
    const here = game.fen;
    this.analysis.start(searcher, {
      position: threat ? `position fen ${threatFen}` : game.uciPosition(),
      fen: threat ? threatFen : here,
      turn: threat ? (game.turn === 'white' ? 'black' : 'white') : game.turn,
      threat,
      count: Number($('#multipv').value),
      mcts: $('#search').value === 'mcts',
      live: () => game.fen === here && this.mode === 'analyse',
    });
  }

  /** Moves the cursor to `ply` of its line (clamped). */
  navigate(ply) {
    const { line } = this.game;
    this.navigateTo(line[Math.max(0, Math.min(line.length - 1, ply))]);
  }

  /** Moves the cursor to a move of the tree, and onto its line. */
  navigateTo(node) {
    if (this.mode === 'watch') this.stopWatching();
    this.token = {};
    this.cancelSearches();
    this.game.goTo(node);
    this.update();
  }

  /** Shows the `next` tab: play, analyse or watch. */
  setMode(next) {
    this.mode = next;
    this.stopWatching();
    this.token = {};
    this.cancelSearches();
    for (const tab of document.querySelectorAll('nav button')) tab.setAttribute('aria-selected', String(tab.dataset.mode === next));
    for (const panel of document.querySelectorAll('.mode')) panel.hidden = panel.dataset.for !== next;
    $('#eval-bar').classList.toggle('hidden', next === 'play');
    this.update();
  }

  stopWatching() {
    this.watching = false;
    $('#watch-toggle').textContent = 'Start';
  }

  /** Stops both engines' searches, dropping their results. */
  cancelSearches() {
    this.searcher?.cancel();
    this.black.cancel();
  }
}
