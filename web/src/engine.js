// The DeepChess engine API for pages: a thin layer over the UCI web worker.
//
//   import { createEngine } from './deepchess.js';
//   const engine = await createEngine();          // or { workerUrl, build: 'scalar', webgpu: false, network: url }
//   engine.onLine((line) => console.log(line));   // every line the engine prints
//   engine.send('position startpos moves e2e4');
//   engine.send('go depth 12');
//   const best = await engine.bestMove('position startpos', 'go movetime 500');
//
// Pages that already speak UCI can use the worker directly:
// `new Worker(workerUrl, { type: 'module' })`, lines in and out over
// postMessage, as with stockfish.js.

/** The worker next to this module: `engine/worker.js`. */
export const defaultWorkerUrl = new URL('./engine/worker.js', import.meta.url);

/**
 * Starts the engine worker and waits for `uciok`. `network` is the URL of a
 * weights file to play with instead of the built-in network (a DeepChess
 * `.dcnn`, a learner's `.dcsn` or the AlphaZero reimplementation's `.dcaz`, which plays
 * MCTS); it is downloaded once, kept by content for
 * offline use and checked against the hash in its name, and a file that does
 * not load is an error.
 * @param {{ workerUrl?: string | URL, build?: 'relaxed' | 'simd' | 'scalar', webgpu?: boolean, network?: string | URL }} [options]
 * @returns {Promise<Engine>}
 */
export async function createEngine(options = {}) {
  const url = new URL(options.workerUrl ?? defaultWorkerUrl, self.location.href);
  if (options.build) url.searchParams.set('build', options.build);
  if (options.webgpu === false) url.searchParams.set('webgpu', '0');
  const engine = new Engine(new Worker(url, { type: 'module' }));
  engine.id = await engine.request('uci', (line) => line === 'uciok');
  if (options.network) {
    const answer = await engine.loadNetwork(new URL(options.network, self.location.href).href);
    if (answer.startsWith('info string error')) {
      engine.terminate();
      throw new Error(answer.replace(/^info string error: /, ''));
    }
  }
  return engine;
}

/** A running engine: send lines, listen to lines. */
export class Engine {
  /** @param {Worker} worker */
  constructor(worker) {
    this.worker = worker;
    this.listeners = new Set();
    /** `id name …` lines and options, filled by `createEngine`. */
    this.id = [];
    worker.onmessage = (event) => {
      for (const listener of [...this.listeners]) listener(String(event.data));
    };
    worker.onerror = (event) => {
      for (const listener of [...this.listeners]) listener(`info string error: worker: ${event.message}`);
    };
  }

  /** Sends one UCI line (or several, separated by newlines). */
  send(line) {
    this.worker.postMessage(line);
  }

  /** Calls `fn` with every line the engine prints; returns a function that stops it. */
  onLine(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Sends `line` and resolves with every line printed up to and including
   * the first for which `until` is true.
   */
  request(line, until) {
    return new Promise((resolve) => {
      const lines = [];
      const off = this.onLine((l) => {
        lines.push(l);
        if (until(l)) {
          off();
          resolve(lines);
        }
      });
      this.send(line);
    });
  }

  /**
   * Plays with the network at `url` (absolute: the worker resolves a
   * relative one against its own location), or the built-in one for
   * `<embedded>`; resolves with the engine's answer, `info string loaded
   * network …` or `info string error: cannot load network …` (the network in
   * use then stays).
   */
  async loadNetwork(url) {
    const lines = await this.request(`setoption name EvalFile value ${url}`, (line) =>
      /^info string (loaded network|error: cannot load network)/.test(line),
    );
    return lines[lines.length - 1];
  }

  /** Waits until the engine has handled everything sent so far. */
  async ready() {
    await this.request('isready', (line) => line === 'readyok');
  }

  /**
   * Sets the position, searches with `go`, and resolves with the move
   * (`e2e4`, or null without legal moves) and the last `info` line.
   */
  async bestMove(position, go = 'go movetime 1000') {
    this.send(position);
    let info = null;
    const lines = await this.request(go, (line) => line.startsWith('bestmove'));
    for (const line of lines) if (line.startsWith('info depth')) info = line;
    const move = lines[lines.length - 1].split(/\s+/)[1];
    return { move: move === '(none)' ? null : move, info };
  }

  /** Ends the worker. */
  terminate() {
    this.send('quit');
    this.worker.terminate();
  }
}

/**
 * Parses an `info` line into { depth, seldepth, multipv, cp, mate, nodes, nps, time, pv };
 * null for other lines and for `info` lines without `nodes` or `time` (as lila drops them).
 */
export function parseInfo(line) {
  const words = line.trim().split(/\s+/);
  if (words[0] !== 'info') return null;
  const info = { multipv: 1, pv: [] };
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word === 'pv') {
      info.pv = words.slice(i + 1);
      break;
    } else if (word === 'score') {
      const kind = words[++i];
      const value = Number(words[++i]);
      if (kind === 'cp') info.cp = value;
      else if (kind === 'mate') info.mate = value;
      if (words[i + 1] === 'lowerbound' || words[i + 1] === 'upperbound') i++;
    } else if (['depth', 'seldepth', 'multipv', 'nodes', 'nps', 'time', 'hashfull'].includes(word)) {
      info[word] = Number(words[++i]);
    } else if (word === 'string') {
      return null;
    }
  }
  return info.nodes === undefined || info.time === undefined || info.depth === undefined ? null : info;
}
