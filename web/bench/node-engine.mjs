// The browser engine in node, without a browser, for ab-node.mjs and profile-node.mjs: a cargo
// .wasm through wasm-bindgen (and wasm-opt, if asked) into this process, and the search of one
// position to a fixed depth, which gives the same nodes every run of the same build.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The npm binaryen's wasm-opt, which `make wasm-pkg` runs. */
const wasmOpt = join(root, 'web', 'node_modules', '.bin', 'wasm-opt');

/**
 * wasm-opt's level and feature flags for the Makefile's build `build` (`relaxed_mt`, …), read
 * from the Makefile so that they have one source: `[level, ...features]`.
 */
export function wasmOptFlags(build) {
  const line = execFileSync('make', ['-s', '--no-print-directory', '-C', root, 'wasm-opt-flags', `BUILD=${build}`], {
    encoding: 'utf8',
    env: { ...process.env, MAKEFLAGS: '' },
  });
  return line.trim().split(/\s+/);
}

/**
 * Loads the cargo module `wasm` through wasm-bindgen into the folder `out` (under the name
 * `name`; `keepDebug` keeps the function names for a profiler), then, if `opt` is set,
 * wasm-opt with those arguments. Returns the engine, set to the scalar search, and the size of
 * the module it runs.
 */
export async function loadEngine(wasm, out, { name = 'engine', keepDebug = false, opt = null } = {}) {
  const debug = keepDebug ? ['--keep-debug'] : [];
  execFileSync('wasm-bindgen', ['--target', 'web', '--no-typescript', ...debug, '--out-dir', out, '--out-name', name, wasm]);
  const module = join(out, `${name}_bg.wasm`);
  if (opt) execFileSync(wasmOpt, [...opt, module, '-o', module]);
  const bytes = readFileSync(module);
  const glue = await import(pathToFileURL(join(out, `${name}.js`)).href);
  await glue.default({ module_or_path: bytes });
  const engine = new glue.Engine();
  engine.handle('setoption name Search value scalar');
  return { engine, bytes: bytes.length };
}

/** Searches `fen` to `depth` from a new game: `{ ms, nodes }`, nodes from the last `info`. */
export function searchDepth(engine, fen, depth) {
  engine.handle('ucinewgame');
  engine.handle(`position fen ${fen}`);
  const started = performance.now();
  engine.handle(`go depth ${depth}`);
  let last = '';
  while (engine.thinking) {
    for (const line of engine.think(4096)) if (line.startsWith('info depth') && line.includes(' nodes ')) last = line;
  }
  const ms = performance.now() - started;
  const nodes = / nodes (\d+)/.exec(last);
  if (!nodes) throw new Error(`no info line with nodes for ${fen} at depth ${depth}`);
  return { ms, nodes: Number(nodes[1]) };
}
