// The header's engine status in plain words ("Ready · 2 threads", "Deep Pink
// loaded · 2 threads"), with the details (its build, the thread limit and
// why, the network's file, layer shapes and searches) in words one tap away.

import { buildOf } from './searcher.js';
import { searchName } from './settings.js';

export class EngineStatus {
  /** `line`: the header's status button; `details`: where the engine's own words go. */
  constructor(line, details) {
    this.line = line;
    this.details = details;
    /** The engine's `id name` (`DeepChess 0.1.0 wasm-relaxed-mt`). */
    this.build = '';
    this.threads = 1;
    this.maxThreads = 1;
    /** Why the engine runs one thread only, in its words, if it says. */
    this.why = '';
    /** The network that plays: the Network choice's name ('' before any was picked) and the engine's line about it. */
    this.network = '';
    this.networkLine = '';
    /** A message that stands in for the plain status until the next change (loading, an error). */
    this.message = 'Engine loading…';
    line.addEventListener('click', () => this.toggle());
    this.render();
  }

  /** The engine answered `uci`: its name, thread limit and starting network. */
  ready({ build, threads, maxThreads, why, networkLine }) {
    Object.assign(this, { build, threads, maxThreads, why, networkLine, message: '' });
    this.render();
  }

  setThreads(threads) {
    this.threads = threads;
    this.render();
  }

  /** A network now plays: `name` as the Network choice calls it, `line` the engine's `loaded network …`. */
  loaded(name, line) {
    this.network = name;
    this.networkLine = line;
    this.message = '';
    this.render();
  }

  /** Says `message` instead of the plain status (a load under way, an error) until the next change. */
  say(message) {
    this.message = message;
    this.render();
  }

  /** Shows or hides the details. */
  toggle() {
    this.details.hidden = !this.details.hidden;
    this.line.setAttribute('aria-expanded', String(!this.details.hidden));
  }

  /** The plain line. */
  get text() {
    if (this.message) return this.message;
    const threads = `${this.threads} thread${this.threads === 1 ? '' : 's'}`;
    return `${this.network ? `${this.network} loaded` : 'Ready'} · ${threads}`;
  }

  render() {
    this.line.textContent = this.text;
    const threads =
      this.maxThreads > 1 ? `up to ${this.maxThreads} threads here` : this.why || 'one thread here';
    const lines = this.build ? [buildText(this.build), threads, networkText(this.networkLine)] : [];
    this.details.textContent = lines.filter(Boolean).join(' · ');
    this.line.title = this.details.textContent || this.text;
  }
}

const KERNELS = { relaxed: 'relaxed SIMD', simd128: 'SIMD', scalar: 'no SIMD' };

/** The engine's `id name` in words: `DeepChess 0.1.0 wasm-relaxed-mt` → `DeepChess 0.1.0, WebAssembly with relaxed SIMD and threads`. */
export function buildText(build) {
  const built = buildOf(build);
  if (!built) return build;
  const { engine, kernel, threaded } = built;
  return `${engine}, WebAssembly with ${KERNELS[kernel] ?? kernel}${threaded ? ' and threads' : ''}`;
}

/**
 * The engine's line about its network in words: `info string loaded network
 * URL: 773-256-32 + utility 32-1 (plays scalar, mcts)` → `network
 * deepchess-….dcnn: 773-256-32 + utility 32-1 · plays alpha-beta, MCTS`.
 */
export function networkText(line) {
  const match = /^info string (?:loaded )?network (\S+): (.*?)(?: \(plays ([a-z, ]+)\))?$/.exec(line);
  if (!match) return line.replace(/^info string /, '');
  const [, where, shape, plays] = match;
  const file = where === '<embedded>' ? 'built in' : where.split('/').pop();
  const searches = plays ? ` · plays ${plays.split(', ').map(searchName).join(', ')}` : '';
  return `network ${file}: ${shape}${searches}`;
}
