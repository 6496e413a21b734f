// The game model under node, without a browser: the move tree, its side
// lines, and PGN in and out with variations.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Game } from '../src/game.js';

const sans = (game) => game.moves.map((m) => m.san);

test('a move in the middle of a game starts a side line and keeps the rest', () => {
  const game = new Game();
  for (const uci of ['e2e4', 'e7e5', 'g1f3', 'b8c6']) assert.ok(game.play(uci));
  game.go(2);
  assert.ok(game.play('f1c4'));
  assert.deepEqual(sans(game), ['e4', 'e5', 'Bc4'], 'the cursor is on the side line');
  assert.equal(game.ply, 3);
  assert.deepEqual(game.mainline().slice(1).map((n) => n.move.san), ['e4', 'e5', 'Nf3', 'Nc6'], 'the main line is kept');
  assert.deepEqual(game.positions.length, 4);
  assert.equal(game.uciPosition(), 'position startpos moves e2e4 e7e5 f1c4');

  // Playing a move that is already there follows it, and its continuation.
  game.go(2);
  assert.ok(game.play('g1f3'));
  assert.deepEqual(sans(game), ['e4', 'e5', 'Nf3', 'Nc6']);
  assert.equal(game.ply, 3);
  assert.equal(game.line[2].children.length, 2, 'no duplicate move in the tree');
});

test('illegal moves change nothing', () => {
  const game = new Game();
  assert.equal(game.play('e2e5'), false);
  assert.equal(game.play('nonsense'), false);
  assert.equal(game.moves.length, 0);
  assert.equal(game.root.children.length, 0);
});

test('promote and delete side lines', () => {
  const game = new Game();
  for (const uci of ['d2d4', 'd7d5', 'c2c4']) game.play(uci);
  game.go(2);
  game.play('g1f3'); // 2. Nf3 beside 2. c4
  game.play('g8f6');
  const side = game.node;
  assert.equal(side.move.san, 'Nf6');
  assert.ok(game.promote(side));
  assert.deepEqual(game.mainline().slice(1).map((n) => n.move.san), ['d4', 'd5', 'Nf3', 'Nf6']);
  assert.equal(game.node, side, 'the cursor stays put');
  assert.equal(game.promote(side), false, 'a main-line move cannot be promoted');

  // Delete the side line (now 2. c4): the cursor is elsewhere and stays.
  const c4 = game.line[2].children[1];
  assert.equal(c4.move.san, 'c4');
  assert.ok(game.delete(c4));
  assert.equal(game.line[2].children.length, 1);
  assert.equal(game.node, side);

  // Delete the cursor's own move: the cursor steps back to its parent.
  assert.ok(game.delete(game.node));
  assert.equal(game.ply, 3);
  assert.deepEqual(sans(game), ['d4', 'd5', 'Nf3']);
  assert.equal(game.delete(game.root), false, 'the root stays');
});

test('taking back removes the moves from the tree', () => {
  const game = new Game();
  for (const uci of ['e2e4', 'c7c5', 'g1f3']) game.play(uci);
  game.takeBack(2);
  assert.deepEqual(sans(game), ['e4']);
  assert.equal(game.line[1].children.length, 0);
  assert.ok(game.play('e7e5'));
  assert.deepEqual(sans(game), ['e4', 'e5']);
  assert.equal(game.line[1].children.length, 1);
});

test('PGN keeps side lines both ways', () => {
  const pgn = '[Event "t"]\n\n1. e4 e5 (1... c5 2. Nf3 (2. Nc3) 2... d6) 2. Nf3 Nc6 *\n';
  const game = new Game();
  game.loadPgn(pgn);
  assert.equal(game.ply, 4, 'the cursor is on the last move, as lichess opens a game');
  assert.equal(game.node.move.san, 'Nc6');
  assert.deepEqual(game.mainline().slice(1).map((n) => n.move.san), ['e4', 'e5', 'Nf3', 'Nc6']);
  const e4 = game.root.children[0];
  assert.deepEqual(e4.children.map((n) => n.move.san), ['e5', 'c5']);
  const c5 = e4.children[1];
  assert.deepEqual(c5.children.map((n) => n.move.san), ['Nf3', 'Nc3']);
  assert.equal(c5.children[0].children[0].move.san, 'd6');

  const out = game.pgn({ Event: 't' });
  assert.match(out, /1\. e4 e5 \( 1\.\.\. c5 2\. Nf3 \( 2\. Nc3 \) 2\.\.\. d6 \) 2\. Nf3 Nc6 \*/);
  const again = new Game();
  again.loadPgn(out);
  assert.equal(again.pgn({ Event: 't', Date: 'x' }), game.pgn({ Event: 't', Date: 'x' }), 'a round trip keeps the tree');
});

test('an illegal move in a side line rejects the PGN', () => {
  const game = new Game();
  assert.throws(() => game.loadPgn('1. e4 (1. e5) e5 *'), /illegal move 1\. e5/);
});

test('the result is the main line end, wherever the cursor is', () => {
  const game = new Game();
  for (const uci of ['f2f3', 'e7e5', 'g2g4', 'd8h4']) game.play(uci);
  assert.equal(game.outcome()?.reason, 'checkmate');
  game.go(1);
  game.play('e7e6'); // a side line
  assert.equal(game.outcome(), null);
  assert.match(game.pgn(), /\[Result "0-1"\]/);
});

test('PGN comments and NAGs survive a load and a copy out', () => {
  const pgn = '{ Before the game } 1. e4 { best by test } e5 2. Nf3 $1 Nc6?! ( { Instead } 2... d6 { Philidor } ) *\n';
  const game = new Game();
  game.loadPgn(pgn);
  assert.deepEqual(game.root.comments, ['Before the game']);
  assert.deepEqual(game.root.children[0].comments, ['best by test']);
  const nc6 = game.mainline()[4];
  assert.deepEqual(nc6.nags, [6]);
  assert.deepEqual(nc6.parent.nags, [1]);
  assert.deepEqual(nc6.parent.children[1].comments, ['Instead', 'Philidor']);
  const out = game.pgn();
  assert.match(out, /\{ Before the game \} 1\. e4 \{ best by test \} e5 2\. Nf3 \$1 2\.\.\. Nc6 \$6 \( 2\.\.\. d6 \{ Instead \} \{ Philidor \} \) \*/);
  const again = new Game();
  again.loadPgn(out);
  assert.equal(again.pgn({ Date: 'x' }), game.pgn({ Date: 'x' }), 'a round trip keeps them');
});

test("the cursor's path through the tree brings it back to the same move after a PGN round trip", () => {
  const game = new Game();
  game.loadPgn('1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) d6) 2. Nf3 *');
  game.goTo(game.root.children[0].children[1].children[1].children[0]); // 2... Nc6 after 2. Nc3
  const path = game.path();
  assert.deepEqual(path, [0, 1, 1, 0]);
  const again = new Game();
  again.loadPgn(game.pgn());
  again.followPath(path);
  assert.equal(again.fen, game.fen);
  assert.deepEqual(again.moves.map((m) => m.san), ['e4', 'c5', 'Nc3', 'Nc6']);
  again.followPath([0, 5, 0]); // no such move: as far as the tree goes
  assert.deepEqual(again.moves.map((m) => m.san).slice(0, again.ply), ['e4']);
});

test('a bad FEN is refused in words, not in codes', () => {
  assert.throws(() => new Game('8/8/8/8/8/8/8/8 w - - 0 1'), /^Error: Illegal position: the board is empty\.$/);
  assert.throws(() => new Game('rnbqkbnr/pppppppp/8/8 w KQkq - 0 1'), /^Error: Invalid FEN: the board must be eight ranks of eight squares, separated by \/\.$/);
  assert.throws(() => new Game('4k3/8/8/8/8/8/8/4K3 x - - 0 1'), /^Error: Invalid FEN: the side to move must be w or b\.$/);
  assert.throws(() => new Game('4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1'), /^Error: Illegal position: the side not to move is in check\.$/);
});

test('a line of UCI moves in SAN with numbers, each with the position after it', () => {
  const moves = Game.lineMoves('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', ['e7e5', 'g1f3', 'b8c6', 'e1e3', 'a2a3']);
  assert.deepEqual(moves.map((m) => m.text), ['1… e5', '2. Nf3', 'Nc6'], 'up to the first illegal move');
  assert.equal(moves[1].fen, 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2');
  const line = Game.lineMoves('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', ['e7e5', 'g1f3']);
  assert.equal(line.map((m) => m.text).join(' '), '1… e5 2. Nf3');
});

test("the threat position passes the move to the other side, and there is none in check", () => {
  const game = new Game('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2');
  assert.equal(game.threatFen(), 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2');
  assert.equal(new Game('4k3/8/8/8/8/8/4q3/4K3 w - - 0 1').threatFen(), null);
});

test("a review's judgements go out beside the player's own marks, which stay", () => {
  const game = new Game();
  game.loadPgn('1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0');
  const main = game.mainline();
  // What a review gives: a mistake where the player wrote ??, a blunder on an unmarked move.
  main[6].judgement = 2;
  main[4].judgement = 4;
  const pgn = game.pgn();
  // PGN writes glyphs as NAGs: ?? is $4. Nf6 keeps the player's, not the review's $2.
  assert.match(pgn, /2\. Qh5 Nc6 \$4 3\. Bc4 Nf6 \$4 4\. Qxf7#/, pgn);
  assert.deepEqual(main[6].nags, [4], 'the ?? the PGN had');
});

test('the review: winning chances from engine scores, judgements by lichess thresholds, the graph and its clicks', async () => {
  const { whiteChances, judge, withJudgement, graphPoints, plyAt } = await import('../src/review.js');
  assert.equal(whiteChances({ cp: 0 }, 'white'), 0);
  assert.ok(Math.abs(whiteChances({ cp: 100 }, 'white') - 0.1820) < 1e-3, 'a pawn for White');
  assert.ok(Math.abs(whiteChances({ cp: 100 }, 'black') + 0.1820) < 1e-3, 'a pawn for Black, the side to move');
  assert.equal(whiteChances({ mate: 3 }, 'black'), -1);
  assert.equal(whiteChances({ mate: -2 }, 'black'), 1);
  assert.equal(whiteChances({ mate: 0 }, 'white'), -1, 'White is mated');
  assert.equal(whiteChances({ cp: 5000 }, 'white'), whiteChances({ cp: 1000 }, 'white'), 'scores beyond ten pawns are ten pawns');
  assert.equal(judge(0.1, -0.25, 'white'), 4, 'White gave away 0.35: a blunder');
  assert.equal(judge(0.1, -0.15, 'white'), 2);
  assert.equal(judge(0.1, -0.05, 'white'), 6);
  assert.equal(judge(0.1, 0.05, 'white'), null);
  assert.equal(judge(0.1, 0.45, 'black'), 4, 'Black gave away 0.35');
  assert.equal(judge(-0.9, -0.5, 'white'), null, 'gaining is no mistake');
  // The player's own marks stay; the engine's is added unless the player judged the move already.
  assert.deepEqual(withJudgement([1, 6], 4), [1, 6]);
  assert.deepEqual(withJudgement([2], null), [2]);
  assert.deepEqual(withJudgement([1], 4), [1, 4]);
  assert.deepEqual(withJudgement([], 6), [6]);
  assert.deepEqual(graphPoints([0, 1, -1, null], 300, 80), [[0, 40], [100, 0], [200, 80], [300, 40]]);
  assert.equal(plyAt(0, 400, 9), 0);
  assert.equal(plyAt(400, 400, 9), 8);
  assert.equal(plyAt(140, 400, 9), 3);
  assert.equal(plyAt(50, 400, 1), 0);
});

test('a game ended off the board (resigned, agreed, on time) is over at its last move only, and says so in its PGN', () => {
  const game = new Game();
  for (const uci of ['e2e4', 'e7e5']) game.play(uci);
  game.finish('1-0', 'Black resigned');
  assert.deepEqual(game.outcome(), { result: '1-0', reason: 'Black resigned' });
  assert.equal(game.play('g1f3'), false, 'no move after the end');
  assert.match(game.pgn(), /\[Result "1-0"\]/);
  game.go(1);
  assert.equal(game.outcome(), null, 'earlier positions are still open to analysis');
  game.go(2);
  game.takeBack(1);
  assert.equal(game.outcome(), null, 'taking back reopens it');
  assert.match(game.pgn(), /\[Result "\*"\]/);
});

test('the clock: the side to move runs, a move adds the increment, time never goes below zero', async () => {
  const { Clock, clockText } = await import('../src/clock.js');
  let t = 0;
  const clock = new Clock(60000, 2000, () => t);
  clock.start('white');
  t = 5000;
  assert.equal(clock.remaining('white'), 55000);
  assert.equal(clock.remaining('black'), 60000);
  clock.press();
  assert.equal(clock.running, 'black');
  assert.equal(clock.remaining('white'), 57000, 'the increment after the move');
  t = 65000;
  assert.equal(clock.remaining('black'), 0);
  assert.equal(clock.flagged(), 'black');
  clock.pause();
  assert.equal(clock.flagged(), null);
  const again = Clock.from(JSON.parse(JSON.stringify(clock)), () => t);
  assert.deepEqual([again.remaining('white'), again.remaining('black'), again.increment], [57000, 0, 2000]);
  assert.deepEqual([clockText(300000), clockText(59999), clockText(9450), clockText(3723000)], ['5:00', '0:59', '0:09.4', '1:02:03']);
});

test("the engine's time a move under a clock: the level's, held to a thirtieth of its time and most of the increment", async () => {
  const { Clock, playGo } = await import('../src/clock.js');
  assert.equal(playGo('go movetime 1000', null, 'white'), 'go movetime 1000', 'no clock: the level as it is');
  const clock = new Clock(180000, 2000, () => 0);
  // 180 s / 30 + 0.8 × 2 s = 7.6 s: a 1 s level keeps its second, a 3 s level its three.
  assert.equal(playGo('go movetime 1000', clock, 'black'), 'go movetime 1000');
  clock.left.black = 15000;
  // 15 s / 30 + 1.6 s = 2.1 s.
  assert.equal(playGo('go movetime 3000', clock, 'black'), 'go movetime 2100');
  // A depth level gets the budget as a cap; never under 50 ms.
  assert.equal(playGo('go depth 7', clock, 'black'), 'go depth 7 movetime 2100');
  assert.equal(playGo('go depth 7', new Clock(0, 0, () => 0), 'white'), 'go depth 7 movetime 50');
});

test('opening names: every entry of the table replays, and a line is named by its deepest named position', async () => {
  const { openingAt, openingTable } = await import('../src/openings.js');
  assert.ok(openingTable().size >= 120, `${openingTable().size} named positions`);
  const game = new Game();
  assert.equal(openingAt(game.node), null, 'the start is not an opening');
  game.loadPgn('1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. d3 *');
  assert.deepEqual(openingAt(game.node), { eco: 'C70', name: 'Ruy Lopez: Morphy Defense' });
  game.go(3);
  assert.deepEqual(openingAt(game.node), { eco: 'C40', name: "King's Knight Opening" });
  // A transposition is named by the position: 1. Nf3 d5 2. d4 Nf6 3. Bf4 is the London System's.
  const transposed = new Game();
  transposed.loadPgn('1. Nf3 d5 2. d4 Nf6 3. Bf4 *');
  assert.deepEqual(openingAt(transposed.node), { eco: 'D02', name: "Queen's Pawn Game: London System" });
});
