// The Engine settings panel (Network, Search, Per move, Threads): under each choice a
// visible line that says what it does (phones show no tooltips), and in the
// panel's summary the choices made, so that a closed panel still says what plays.
import { $ } from './dom.js';

/** What each search does, in a player's words. */
const SEARCHES = {
  scalar: "Looks ahead move by move and scores each position with the network's learned value. The strongest.",
  comparison:
    "The DeepChess paper's own search: it compares two positions at a time with the network's comparison head. Slower and weaker than alpha-beta.",
  mcts: "Monte Carlo tree search, as AlphaZero plays: the AlphaZero networks' search; with the other networks it is experimental and weaker.",
};

/** The searches' short names, for the summary. */
const SHORT = { scalar: 'alpha-beta', comparison: 'position comparison', mcts: 'MCTS' };

const BUILT_IN =
  "DeepChess's value network, built into the engine: learned from engine games and its own games. The strongest here.";

/**
 * The line under the Search choice: what the chosen search does, and why
 * the others are not offered when the network cannot play them.
 */
export function searchHint(select) {
  const offered = [...select.options].filter((o) => !o.disabled).map((o) => o.value);
  const text = SEARCHES[select.value] ?? '';
  if (offered.length === 1) return `${text} This network plays no other search.`;
  if (!offered.includes('comparison')) {
    return `${text} Position comparison needs the paper's comparison network (under Network).`;
  }
  return text;
}

/** The line under the Network choice: what the chosen network is. */
export function networkHint(select) {
  const picked = select.selectedOptions[0];
  if (!picked || picked.value === '') return BUILT_IN;
  const weaker = 'experimental' in picked.dataset ? ' Experimental: far weaker than DeepChess.' : '';
  return `${picked.title || picked.textContent}.${weaker}`;
}

/**
 * The threads a visit starts with: every core but one (the page and the
 * browser keep that one), at most the engine's limit `max`, at least one.
 */
export function defaultThreads(max, cores) {
  return Math.max(1, Math.min(max, (cores || 1) - 1));
}

/**
 * The transposition table a device can spare, in MB: 16 for each GB of
 * memory the browser reports (`navigator.deviceMemory`, which Chrome rounds
 * and caps at 8), from 16 (the engine's default, also where the browser does
 * not say) to 128.
 */
export function hashMb(deviceMemory) {
  return Math.max(16, Math.min(128, Math.floor(16 * (deviceMemory || 0))));
}

/** The line under the Threads choice: what threads do, or why there is one (the engine's `one thread: …`). */
export function threadsHint(maxThreads, why) {
  if (maxThreads > 1) return `More threads search deeper in the same time (up to ${maxThreads} here).`;
  return why ? `One thread here: ${why.replace(/^one thread:\s*/, '')}.` : 'One thread here.';
}

/** A search's name in a player's words (`scalar` is alpha-beta over the network's value). */
export function searchName(search) {
  return SHORT[search] ?? search;
}

/** The panel's summary: the network, search and threads in a few words. */
export function settingsSummary(network, search, threads) {
  const name = network.selectedOptions[0]?.dataset.name ?? 'DeepChess';
  const count = Number(threads.value) || 1;
  return `${name} · ${searchName(search.value)} · ${count} thread${count === 1 ? '' : 's'}`;
}

/** What the search counts per move: MCTS's nodes are its playouts. */
export function perMoveUnit(search) {
  return search === 'mcts' ? 'playouts' : 'nodes';
}

/** The line under the Per move choice. */
export function perMoveHint(count, search) {
  if (!count) return 'The engine thinks as long as the Strength level (and the clock) give it.';
  const unit = perMoveUnit(search);
  const report = search === 'mcts' ? " The AlphaZero reimplementation's report plays 10 playouts a move." : '';
  return `A fixed ${Number(count).toLocaleString('en')} ${unit} each move, in place of Strength and the watched game's time per move.${report}`;
}

/** The `go` of a fixed count per move (`go nodes 10`), or null for Strength's. */
export function perMoveGo(count) {
  return count ? `go nodes ${count}` : null;
}

/** Writes every line of the panel from the choices as they stand. */
export function renderSettings({ maxThreads, why }) {
  const search = $('#search').value;
  const perMove = $('#per-move');
  for (const option of perMove.options) {
    if (option.value) option.textContent = `${Number(option.value).toLocaleString('en')} ${perMoveUnit(search)}`;
  }
  $('#strength').disabled = $('#watch-time').disabled = Boolean(perMove.value);
  $('#network-hint').textContent = networkHint($('#network'));
  $('#search-hint').textContent = searchHint($('#search'));
  $('#per-move-hint').textContent = perMoveHint(perMove.value, search);
  $('#threads-hint').textContent = threadsHint(maxThreads, why);
  const fixed = perMove.value ? ` · ${perMove.selectedOptions[0].textContent}` : '';
  $('#settings-summary').textContent = settingsSummary($('#network'), $('#search'), $('#threads')) + fixed;
}
