// Opening names from a small ECO table: the common openings and their main
// variations, each by the moves that reach it, named as lichess names them.
// A position is matched wherever it comes from, so transpositions are named
// too. Written by hand (no opening database ships with the site): about a
// hundred and forty-five entries, enough to name the first moves of most games;
// past them the deepest named position of the line stands.
import { INITIAL_FEN, makeFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { positionFromFen } from './game.js';

/** [ECO, name, moves]. */
const TABLE = [
  ['A00', 'Polish Opening', 'b4'],
  ['A00', 'Grob Opening', 'g4'],
  ['A00', 'Hungarian Opening', 'g3'],
  ['A00', "Van 't Kruijs Opening", 'e3'],
  ['A00', 'Mieses Opening', 'd3'],
  ['A00', 'Saragossa Opening', 'c3'],
  ['A00', 'Van Geet Opening', 'Nc3'],
  ['A00', 'Anderssen Opening', 'a3'],
  ['A00', 'Amar Opening', 'Nh3'],
  ['A00', 'Barnes Opening', 'f3'],
  ['A01', 'Nimzo-Larsen Attack', 'b3'],
  ['A02', 'Bird Opening', 'f4'],
  ['A02', "Bird Opening: From's Gambit", 'f4 e5'],
  ['A03', 'Bird Opening: Dutch Variation', 'f4 d5'],
  ['A04', 'Zukertort Opening', 'Nf3'],
  ['A06', 'Zukertort Opening: Queen Pawn Defense', 'Nf3 d5'],
  ['A07', "King's Indian Attack", 'Nf3 d5 g3'],
  ['A09', 'Réti Opening', 'Nf3 d5 c4'],
  ['A10', 'English Opening', 'c4'],
  ['A13', 'English Opening: Agincourt Defense', 'c4 e6'],
  ['A15', 'English Opening: Anglo-Indian Defense', 'c4 Nf6'],
  ['A20', "English Opening: King's English Variation", 'c4 e5'],
  ['A30', 'English Opening: Symmetrical Variation', 'c4 c5'],
  ['A40', "Queen's Pawn Game", 'd4'],
  ['A40', 'Englund Gambit', 'd4 e5'],
  ['A41', "Queen's Pawn Game: Modern Defense", 'd4 g6'],
  ['A43', 'Benoni Defense: Old Benoni', 'd4 c5'],
  ['A45', 'Indian Defense', 'd4 Nf6'],
  ['A45', 'Trompowsky Attack', 'd4 Nf6 Bg5'],
  ['A46', 'Indian Defense: Knights Variation', 'd4 Nf6 Nf3'],
  ['A46', 'Torre Attack', 'd4 Nf6 Nf3 e6 Bg5'],
  ['A48', 'East Indian Defense', 'd4 Nf6 Nf3 g6'],
  ['A48', 'London System', 'd4 Nf6 Nf3 g6 Bf4'],
  ['A50', 'Indian Defense: Normal Variation', 'd4 Nf6 c4'],
  ['A51', 'Indian Defense: Budapest Defense', 'd4 Nf6 c4 e5'],
  ['A53', 'Old Indian Defense', 'd4 Nf6 c4 d6'],
  ['A56', 'Benoni Defense', 'd4 Nf6 c4 c5'],
  ['A57', 'Benko Gambit', 'd4 Nf6 c4 c5 d5 b5'],
  ['A60', 'Modern Benoni', 'd4 Nf6 c4 c5 d5 e6'],
  ['A80', 'Dutch Defense', 'd4 f5'],
  ['A83', 'Dutch Defense: Staunton Gambit', 'd4 f5 e4'],
  ['B00', 'Nimzowitsch Defense', 'e4 Nc6'],
  ['B00', 'Owen Defense', 'e4 b6'],
  ['B00', 'St. George Defense', 'e4 a6'],
  ['B00', "King's Pawn Game", 'e4'],
  ['B01', 'Scandinavian Defense', 'e4 d5'],
  ['B01', 'Scandinavian Defense: Main Line', 'e4 d5 exd5 Qxd5 Nc3'],
  ['B01', 'Scandinavian Defense: Modern Variation', 'e4 d5 exd5 Nf6'],
  ['B02', 'Alekhine Defense', 'e4 Nf6'],
  ['B03', 'Alekhine Defense: Four Pawns Attack', 'e4 Nf6 e5 Nd5 d4 d6 c4 Nb6 f4'],
  ['B04', 'Alekhine Defense: Modern Variation', 'e4 Nf6 e5 Nd5 d4 d6 Nf3'],
  ['B06', 'Modern Defense', 'e4 g6'],
  ['B07', 'Pirc Defense', 'e4 d6 d4 Nf6 Nc3 g6'],
  ['B10', 'Caro-Kann Defense', 'e4 c6'],
  ['B11', 'Caro-Kann Defense: Two Knights Attack', 'e4 c6 Nc3 d5 Nf3'],
  ['B12', 'Caro-Kann Defense: Advance Variation', 'e4 c6 d4 d5 e5'],
  ['B13', 'Caro-Kann Defense: Exchange Variation', 'e4 c6 d4 d5 exd5 cxd5'],
  ['B14', 'Caro-Kann Defense: Panov Attack', 'e4 c6 d4 d5 exd5 cxd5 c4'],
  ['B18', 'Caro-Kann Defense: Classical Variation', 'e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5'],
  ['B20', 'Sicilian Defense', 'e4 c5'],
  ['B21', 'Sicilian Defense: Smith-Morra Gambit', 'e4 c5 d4 cxd4 c3'],
  ['B22', 'Sicilian Defense: Alapin Variation', 'e4 c5 c3'],
  ['B23', 'Sicilian Defense: Closed', 'e4 c5 Nc3'],
  ['B23', 'Sicilian Defense: Grand Prix Attack', 'e4 c5 Nc3 Nc6 f4'],
  ['B30', 'Sicilian Defense: Old Sicilian', 'e4 c5 Nf3 Nc6'],
  ['B31', 'Sicilian Defense: Rossolimo Variation', 'e4 c5 Nf3 Nc6 Bb5'],
  ['B32', 'Sicilian Defense: Open', 'e4 c5 Nf3 Nc6 d4 cxd4 Nxd4'],
  ['B33', 'Sicilian Defense: Sveshnikov Variation', 'e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6 Nc3 e5'],
  ['B35', 'Sicilian Defense: Accelerated Dragon', 'e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 g6'],
  ['B40', 'Sicilian Defense: French Variation', 'e4 c5 Nf3 e6'],
  ['B41', 'Sicilian Defense: Kan Variation', 'e4 c5 Nf3 e6 d4 cxd4 Nxd4 a6'],
  ['B44', 'Sicilian Defense: Taimanov Variation', 'e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nc6'],
  ['B50', 'Sicilian Defense: Modern Variations', 'e4 c5 Nf3 d6'],
  ['B51', 'Sicilian Defense: Moscow Variation', 'e4 c5 Nf3 d6 Bb5+'],
  ['B54', 'Sicilian Defense: Open', 'e4 c5 Nf3 d6 d4 cxd4 Nxd4'],
  ['B56', 'Sicilian Defense: Classical Variation', 'e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 Nc6'],
  ['B70', 'Sicilian Defense: Dragon Variation', 'e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 g6'],
  ['B80', 'Sicilian Defense: Scheveningen Variation', 'e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 e6'],
  ['B90', 'Sicilian Defense: Najdorf Variation', 'e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6'],
  ['C00', 'French Defense', 'e4 e6'],
  ['C01', 'French Defense: Exchange Variation', 'e4 e6 d4 d5 exd5 exd5'],
  ['C02', 'French Defense: Advance Variation', 'e4 e6 d4 d5 e5'],
  ['C03', 'French Defense: Tarrasch Variation', 'e4 e6 d4 d5 Nd2'],
  ['C10', 'French Defense: Paulsen Variation', 'e4 e6 d4 d5 Nc3'],
  ['C10', 'French Defense: Rubinstein Variation', 'e4 e6 d4 d5 Nc3 dxe4'],
  ['C11', 'French Defense: Classical Variation', 'e4 e6 d4 d5 Nc3 Nf6'],
  ['C15', 'French Defense: Winawer Variation', 'e4 e6 d4 d5 Nc3 Bb4'],
  ['C20', "King's Pawn Game", 'e4 e5'],
  ['C21', 'Danish Gambit', 'e4 e5 d4 exd4 c3'],
  ['C22', 'Center Game', 'e4 e5 d4 exd4 Qxd4'],
  ['C23', "Bishop's Opening", 'e4 e5 Bc4'],
  ['C25', 'Vienna Game', 'e4 e5 Nc3'],
  ['C30', "King's Gambit", 'e4 e5 f4'],
  ['C33', "King's Gambit Accepted", 'e4 e5 f4 exf4'],
  ['C40', "King's Knight Opening", 'e4 e5 Nf3'],
  ['C40', 'Elephant Gambit', 'e4 e5 Nf3 d5'],
  ['C40', 'Latvian Gambit', 'e4 e5 Nf3 f5'],
  ['C41', 'Philidor Defense', 'e4 e5 Nf3 d6'],
  ['C42', "Petrov's Defense", 'e4 e5 Nf3 Nf6'],
  ['C44', "King's Knight Opening: Normal Variation", 'e4 e5 Nf3 Nc6'],
  ['C44', 'Ponziani Opening', 'e4 e5 Nf3 Nc6 c3'],
  ['C44', 'Scotch Gambit', 'e4 e5 Nf3 Nc6 d4 exd4 Bc4'],
  ['C45', 'Scotch Game', 'e4 e5 Nf3 Nc6 d4'],
  ['C46', 'Three Knights Opening', 'e4 e5 Nf3 Nc6 Nc3'],
  ['C47', 'Four Knights Game', 'e4 e5 Nf3 Nc6 Nc3 Nf6'],
  ['C50', 'Italian Game', 'e4 e5 Nf3 Nc6 Bc4'],
  ['C50', 'Italian Game: Giuoco Piano', 'e4 e5 Nf3 Nc6 Bc4 Bc5'],
  ['C50', 'Italian Game: Giuoco Pianissimo', 'e4 e5 Nf3 Nc6 Bc4 Bc5 d3'],
  ['C51', 'Italian Game: Evans Gambit', 'e4 e5 Nf3 Nc6 Bc4 Bc5 b4'],
  ['C53', 'Italian Game: Classical Variation', 'e4 e5 Nf3 Nc6 Bc4 Bc5 c3'],
  ['C55', 'Italian Game: Two Knights Defense', 'e4 e5 Nf3 Nc6 Bc4 Nf6'],
  ['C57', 'Italian Game: Two Knights Defense, Knight Attack', 'e4 e5 Nf3 Nc6 Bc4 Nf6 Ng5'],
  ['C57', 'Italian Game: Two Knights Defense, Fried Liver Attack', 'e4 e5 Nf3 Nc6 Bc4 Nf6 Ng5 d5 exd5 Nxd5 Nxf7'],
  ['C60', 'Ruy Lopez', 'e4 e5 Nf3 Nc6 Bb5'],
  ['C62', 'Ruy Lopez: Steinitz Defense', 'e4 e5 Nf3 Nc6 Bb5 d6'],
  ['C63', 'Ruy Lopez: Schliemann Defense', 'e4 e5 Nf3 Nc6 Bb5 f5'],
  ['C65', 'Ruy Lopez: Berlin Defense', 'e4 e5 Nf3 Nc6 Bb5 Nf6'],
  ['C68', 'Ruy Lopez: Exchange Variation', 'e4 e5 Nf3 Nc6 Bb5 a6 Bxc6'],
  ['C70', 'Ruy Lopez: Morphy Defense', 'e4 e5 Nf3 Nc6 Bb5 a6'],
  ['C80', 'Ruy Lopez: Open', 'e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Nxe4'],
  ['C84', 'Ruy Lopez: Closed', 'e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7'],
  ['C89', 'Ruy Lopez: Marshall Attack', 'e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 O-O c3 d5'],
  ['D00', "Queen's Pawn Game", 'd4 d5'],
  ['D00', "Queen's Pawn Game: Accelerated London System", 'd4 d5 Bf4'],
  ['D02', "Queen's Pawn Game: London System", 'd4 d5 Nf3 Nf6 Bf4'],
  ['D04', "Queen's Pawn Game: Colle System", 'd4 d5 Nf3 Nf6 e3'],
  ['D06', "Queen's Gambit", 'd4 d5 c4'],
  ['D07', "Queen's Gambit Declined: Chigorin Defense", 'd4 d5 c4 Nc6'],
  ['D08', "Queen's Gambit Declined: Albin Countergambit", 'd4 d5 c4 e5'],
  ['D10', 'Slav Defense', 'd4 d5 c4 c6'],
  ['D20', "Queen's Gambit Accepted", 'd4 d5 c4 dxc4'],
  ['D30', "Queen's Gambit Declined", 'd4 d5 c4 e6'],
  ['D32', 'Tarrasch Defense', 'd4 d5 c4 e6 Nc3 c5'],
  ['D35', "Queen's Gambit Declined: Exchange Variation", 'd4 d5 c4 e6 Nc3 Nf6 cxd5 exd5'],
  ['D43', 'Semi-Slav Defense', 'd4 d5 c4 e6 Nc3 Nf6 Nf3 c6'],
  ['D80', 'Grünfeld Defense', 'd4 Nf6 c4 g6 Nc3 d5'],
  ['D85', 'Grünfeld Defense: Exchange Variation', 'd4 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5'],
  ['E01', 'Catalan Opening', 'd4 Nf6 c4 e6 g3'],
  ['E11', 'Bogo-Indian Defense', 'd4 Nf6 c4 e6 Nf3 Bb4+'],
  ['E12', "Queen's Indian Defense", 'd4 Nf6 c4 e6 Nf3 b6'],
  ['E20', 'Nimzo-Indian Defense', 'd4 Nf6 c4 e6 Nc3 Bb4'],
  ['E60', "King's Indian Defense", 'd4 Nf6 c4 g6'],
  ['E70', "King's Indian Defense: Normal Variation", 'd4 Nf6 c4 g6 Nc3 Bg7 e4 d6'],
  ['E80', "King's Indian Defense: Sämisch Variation", 'd4 Nf6 c4 g6 Nc3 Bg7 e4 d6 f3'],
  ['E97', "King's Indian Defense: Orthodox Variation", 'd4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O Be2 e5'],
];

/** A position's key for the table: the board, the side to move, castling and en passant, not the clocks. */
const key = (pos) => makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');

let byPosition = null;

/** The table by position, built on first use; throws if an entry's moves are not legal (the tests replay them all). */
export function openingTable() {
  if (byPosition) return byPosition;
  const table = new Map();
  for (const [eco, name, moves] of TABLE) {
    const pos = positionFromFen(INITIAL_FEN);
    for (const san of moves.split(' ')) {
      const move = parseSan(pos, san);
      if (!move) throw new Error(`openings: ${eco} ${name}: ${san} is not legal after the moves before it`);
      pos.play(move);
    }
    // The first entry for a position names it (entries are listed broad to narrow within a code).
    if (!table.has(key(pos))) table.set(key(pos), { eco, name });
  }
  byPosition = table;
  return table;
}

/** The opening of the line up to `node` (a MoveNode): the deepest named position on the way, or null. */
export function openingAt(node) {
  const table = openingTable();
  for (let n = node; n; n = n.parent) {
    const found = table.get(key(n.pos));
    if (found) return found;
  }
  return null;
}
