// What both browser benchmarks share (run.mjs against native, stockfish.mjs
// against stockfish.js): the bench positions, the UCI flow that times them,
// and running that flow in a worker inside a chromium page.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Core's 46 bench positions (core/src/bench.rs). */
export const fens = [...readFileSync(join(here, '..', '..', 'core', 'src', 'bench.rs'), 'utf8').matchAll(/^\s*"([^"]+)",$/gm)].map(
  (m) => m[1],
);

/**
 * Runs the bench flow through `send`/`next` (a UCI line out, the next line
 * in): `setoption name Search` if `search` is set, `setoption name Threads`
 * if `threads` is, then each position with `go`, timed from `go` to
 * `bestmove` (after `isready` is answered, if `ready`). Returns nodes (every
 * thread's), time and the median depth reached.
 */
export async function benchFlow(fens, go, search, send, next, now, ready = false, threads = null) {
  let nodes = 0;
  let ms = 0;
  const depths = [];
  if (search) send(`setoption name Search value ${search}`);
  if (threads) send(`setoption name Threads value ${threads}`);
  for (const fen of fens) {
    send('ucinewgame');
    send(`position fen ${fen}`);
    if (ready) {
      send('isready');
      while ((await next()) !== 'readyok');
    }
    const started = now();
    send(go);
    let last = '';
    for (;;) {
      const line = await next();
      if (line.startsWith('bestmove')) break;
      // Progress lines (no pv) report an iteration still under way.
      if (line.startsWith('info depth') && line.includes(' pv ')) last = line;
    }
    ms += now() - started;
    nodes += Number(/ nodes (\d+)/.exec(last)[1]);
    depths.push(Number(/^info depth (\d+)/.exec(last)[1]));
  }
  depths.sort((a, b) => a - b);
  return { nodes, ms, nps: Math.round((nodes / ms) * 1000), depth: depths[depths.length >> 1] };
}

/**
 * Runs [`benchFlow`] in `page` with a worker from `url` (after `uci`, and
 * after loading the weights at the URL `network` through `EvalFile`, if set).
 */
export function browserBench(page, { url, type = 'module', fens, go, search = null, ready = false, threads = null, network = null }) {
  return page.evaluate(
    async ({ url, type, fens, go, search, ready, threads, network, flow }) => {
      const benchFlow = new Function(`return ${flow}`)();
      const worker = new Worker(url, { type });
      const queue = [];
      let wake = null;
      worker.onmessage = ({ data }) => {
        for (const line of String(data).split('\n')) queue.push(line);
        wake?.();
      };
      const next = async () => {
        while (!queue.length) await new Promise((r) => (wake = r));
        return queue.shift();
      };
      const send = (line) => worker.postMessage(line);
      send('uci');
      while ((await next()) !== 'uciok');
      if (network) {
        send(`setoption name EvalFile value ${network}`);
        for (;;) {
          const line = await next();
          if (line.startsWith('info string error')) throw new Error(line);
          if (line.startsWith('info string loaded network')) break;
        }
      }
      const result = await benchFlow(fens, go, search, send, next, () => performance.now(), ready, threads);
      worker.terminate();
      return result;
    },
    // The same function runs in the page: it is passed as its source.
    { url, type, fens, go, search, ready, threads, network, flow: benchFlow.toString() },
  );
}
