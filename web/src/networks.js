// The networks the page offers: the Network and *Black plays* choices filled
// from the site's list, the Search choice narrowed to what a network plays,
// and the second engine that plays Black when two networks meet in Watch.
import { createEngine } from './engine.js';
import { Searcher, loadFailure, playsOf } from './searcher.js';

/** Lists the other networks the site ships (`nets/networks.json`) in each of `selects`. */
export async function fillNetworks(selects) {
  try {
    const response = await fetch('nets/networks.json');
    for (const net of response.ok ? await response.json() : []) {
      const option = document.createElement('option');
      // The worker resolves a relative URL against its own location: give it the page's.
      option.value = new URL(`nets/${net.file}`, location.href).href;
      option.dataset.name = net.name;
      // The other learners play far weaker than DeepChess's networks: the line
      // under the choice says so (a mark in the name would cut it on a phone).
      if (net.learner !== 'deepchess') option.dataset.experimental = '';
      option.textContent = net.name;
      option.title = net.description ?? '';
      for (const select of selects) select.append(option.cloneNode(true));
    }
  } catch {
    // Offline before the list was cached: the built-in network only.
  }
}

/**
 * Offers in the Search choice `select` just the searches a network plays, as
 * the engine names them when it loads one (`loaded network …: 773-256-32 +
 * utility 32-1 (plays scalar, mcts)`): a learner's only the scalar search,
 * the AlphaZero reimplementation's only MCTS, the built-in value network
 * both over its utility, the paper's network the comparison search too. If
 * the choice was one the network does not play, its first search is
 * chosen. A failed load leaves the choice alone (the previous network still plays).
 */
export function offerSearches(select, loaded) {
  const plays = playsOf(loaded);
  if (!plays) return;
  for (const option of select.options) option.disabled = !plays.includes(option.value);
  if (!plays.includes(select.value)) select.value = plays[0];
  select.disabled = plays.length === 1;
}

/** The name of the network a Network or *Black plays* choice has picked. */
export function pickedName(select) {
  const picked = select.selectedOptions[0];
  return picked?.dataset.name ?? picked?.textContent ?? '';
}

/**
 * The second engine, for Black when two networks play each other (Watch):
 * started the first time it is needed, and loaded with the network asked
 * for whenever that changes. It plays its network's first search.
 */
export class SecondEngine {
  /** `say(message)`: where its loading and failures are told. */
  constructor(say) {
    this.say = say;
    this.searcher = null;
    this.network = '<embedded>';
    this.search = 'scalar';
  }

  /**
   * The searcher with `network` (a URL or `<embedded>`, called `name`)
   * loaded, or null (and a message) where the engine or the network cannot
   * be had; the next call tries again.
   */
  async get(network, name) {
    this.searcher ??= createEngine().then((engine) => new Searcher(engine));
    let searcher;
    try {
      searcher = await this.searcher;
    } catch (error) {
      this.searcher = null;
      this.say(`The second engine failed to start: ${error.message}`);
      return null;
    }
    if (this.network !== network) {
      this.say(`Loading ${name} for Black…`);
      const last = await searcher.engine.loadNetwork(network);
      if (last.startsWith('info string error')) {
        this.say(`Could not load that network for Black: ${loadFailure(last)}. Both sides play the same network.`);
        return null;
      }
      this.network = network;
      this.search = playsOf(last)?.[0] ?? 'scalar';
      this.say(`${name} plays Black`);
    }
    return searcher;
  }

  /** Stops its search, if it was ever started. */
  cancel() {
    this.searcher?.then((s) => s.cancel()).catch(() => {});
  }
}
