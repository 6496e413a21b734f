// The page's side of the engine (web/src/engine.js): one search at a time,
// and the engine's answers read into what the page needs (the searches a
// network plays, the thread limit, why a network did not load).
import { parseInfo } from './engine.js';

/** Runs one search at a time: a new one stops the previous and waits for its `bestmove`. */
export class Searcher {
  constructor(engine) {
    this.engine = engine;
    this.current = null;
    this.generation = 0;
    engine.onLine((line) => this.onLine(line));
  }

  /** Searches `position` with `go`; resolves with the best move, or null if superseded. */
  async start(position, go, onInfo) {
    const generation = ++this.generation;
    await this.stop();
    if (generation !== this.generation) return null;
    let resolve;
    const done = new Promise((r) => (resolve = r));
    this.current = { onInfo, resolve, done };
    this.engine.send(position);
    this.engine.send(go);
    return done;
  }

  async stop() {
    while (this.current) {
      const { done } = this.current;
      this.engine.send('stop');
      await done;
    }
  }

  /** Stops any search, and drops its result. */
  cancel() {
    this.generation++;
    return this.stop();
  }

  onLine(line) {
    const current = this.current;
    if (!current) return;
    if (line.startsWith('bestmove')) {
      this.current = null;
      const move = line.split(/\s+/)[1];
      current.resolve(move && move !== '(none)' ? move : null);
    } else {
      const info = parseInfo(line);
      if (info) current.onInfo?.(info);
    }
  }
}

/** The page's search choice as UCI: an alpha-beta search (`Search`), or MCTS (`Engine`). */
export function sendSearch(engine, choice) {
  if (choice === 'mcts') {
    engine.send('setoption name Engine value mcts');
  } else {
    engine.send('setoption name Engine value alphabeta');
    engine.send(`setoption name Search value ${choice}`);
  }
}

/**
 * The searches a network plays, first the one it plays by default, from the
 * engine's line about it (`… 773-256-32 + utility 32-1 (plays scalar, mcts)`);
 * null where the line names none (a failed load).
 */
export function playsOf(line) {
  return /\(plays ([a-z, ]+)\)$/.exec(line)?.[1].split(', ') ?? null;
}

/**
 * The build the engine names in its `id name` (`DeepChess 0.1.0
 * wasm-relaxed-mt`): the engine's own name, its kernel (`relaxed`,
 * `simd128`, `scalar`) and whether it is threaded; null for a name without one.
 */
export function buildOf(idName) {
  const match = /^(.*) wasm-(\w+?)(-mt)?$/.exec(idName);
  return match ? { engine: match[1], kernel: match[2], threaded: Boolean(match[3]) } : null;
}

/** The engine's thread limit (its `Threads` option's maximum) and, where that is one, the engine's reason. */
export function threadLimit(engine) {
  const option = engine.id.find((l) => l.startsWith('option name Threads ')) ?? '';
  const max = Number(/^option name Threads type spin .* max (\d+)$/.exec(option)?.[1] ?? 1);
  const why = engine.id.find((l) => l.startsWith('info string one thread'))?.slice('info string '.length) ?? '';
  return { max, why };
}

/**
 * Why a network did not load, in a player's words: offline, a network never
 * downloaded cannot be fetched (once played, one stays available offline).
 */
export function loadFailure(line) {
  const why = line.replace(/^info string error: (cannot load network \S+: )?/, '');
  if (!navigator.onLine || /failed to fetch|networkerror|load failed/i.test(why)) {
    return 'it was not downloaded before going offline (a network played once stays available offline)';
  }
  return why;
}
