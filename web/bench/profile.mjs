// Where the browser engine spends its time: chromium's sampling profiler
// (CDP `Profiler`, 200 µs) over the scalar search of the first 20 bench
// positions for 1 s each, run in a page on a build whose function names are
// kept (wasm-bindgen --keep-debug on the cargo output, without wasm-opt).
//   node web/bench/profile.mjs [--wasm <cargo .wasm>]   (after `make web`)
// The default is the unthreaded relaxed-SIMD build of `make wasm-web`.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { dist, start } from '../tests/browser.mjs';
import { fens } from './flow.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const target = process.env.CARGO_TARGET_DIR ?? join(process.env.HOME, '.cache', 'deepchess', 'target');
const wasm = arg('--wasm', join(target, 'wasm-web-relaxed', 'wasm32-unknown-unknown', 'release', 'deepchess_wasm.wasm'));
const out = join(dist, 'profile');
execFileSync('wasm-bindgen', ['--target', 'web', '--no-typescript', '--keep-debug', '--out-dir', out, '--out-name', 'profile', wasm]);
const browser = await start();
try {
  const page = await browser.page('/embed-example.html');
  await page.evaluate(async () => {
    const glue = await import('./profile/profile.js');
    await glue.default({ module_or_path: new URL('profile/profile_bg.wasm', document.baseURI) });
    window.profiled = new glue.Engine();
  });
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const nodes = await page.evaluate((fens) => {
    const engine = window.profiled;
    let nodes = 0;
    engine.handle('setoption name Search value scalar');
    for (const fen of fens) {
      engine.handle('ucinewgame');
      engine.handle(`position fen ${fen}`);
      engine.handle('go movetime 1000');
      let last = '';
      while (engine.thinking) for (const l of engine.think(4096)) if (l.startsWith('info depth') && l.includes(' pv ')) last = l;
      nodes += Number(/ nodes (\d+)/.exec(last)[1]);
    }
    return nodes;
  }, fens.slice(0, 20));
  const { profile } = await cdp.send('Profiler.stop');
  const time = new Map();
  profile.samples.forEach((id, i) => time.set(id, (time.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const self = new Map();
  for (const node of profile.nodes) {
    const name = node.callFrame.functionName || '(anonymous)';
    self.set(name, (self.get(name) ?? 0) + (time.get(node.id) ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`${nodes} nodes in ${(total / 1000).toFixed(0)} ms sampled (${readFileSync(wasm).length} bytes of wasm)`);
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`);
  }
} finally {
  await browser.close();
  rmSync(out, { recursive: true, force: true });
}
