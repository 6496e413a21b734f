// DeepChess as a module web worker that speaks plain UCI over postMessage,
// one line per message, like stockfish.js: a page that drives stockfish.js
// (lila's ceval, for example) drives this worker unchanged.
//
//   const worker = new Worker('engine/worker.js', { type: 'module' });
//   worker.onmessage = (e) => console.log(e.data);   // 'uciok', 'info depth …', 'bestmove e2e4'
//   worker.postMessage('uci');
//
// URL parameters: `?build=relaxed|simd|scalar` forces a build (the default
// picks relaxed SIMD where the browser has it and computes its dot product
// right, else SIMD128 where the browser validates it, as lila's engine
// registry does, else scalar);
// `?threads=auto|0` (default auto): where the page is cross-origin isolated
// (SharedArrayBuffer), the relaxed and SIMD128 builds run their threaded
// variant (`_mt`), and `Threads` above 1 starts Lazy SMP helpers on helper
// workers (engine/helper.js) over the module's shared memory; elsewhere, or
// with 0, one thread and `Threads` stays 1, and `uci` says why;
// `?webgpu=auto|1|0` (default auto): batched WebGPU inference where it is
// faster than the CPU (measured once per network), always, or never. With
// DeepChess's networks it embeds the positions a search meets first; with
// the AlphaZero reimplementation's (`.dcaz`), MCTS evaluates its leaves in batches on
// the GPU (virtual loss spreads a batch's leaves) while this worker reads
// messages, so `stop` is answered at once even while a batch is out.
//
// The main search runs in this worker in node-budgeted slices of a few
// milliseconds and yields to the event loop between them: `stop` and
// `isready` are answered within one slice, even during `go infinite`.

/** Nodes per call into the engine. */
const SLICE_NODES = 1024;
/** Wall time, in ms, before yielding to read messages. */
const SLICE_MS = 8;
/** How deep and how many positions the WebGPU batch embeds before `go`. */
const GPU_PLIES = 2;
const GPU_LIMIT = 4096;
/** MCTS leaves per WebGPU batch with the AlphaZero network. */
const AZ_BATCH = 64;
/** Input values per leaf: core's 22 planes of 64 squares (`PLANES × 64`). */
const PLANE_VALUES = 22 * 64;

// Lines that arrive while the module loads wait here: the handler must be
// in place before the first await.
const queue = [];
self.onmessage = (event) => {
  for (const line of String(event.data).split('\n')) queue.push(line);
  pump();
};

// A 10-byte function that uses a SIMD128 instruction: valid only where the
// browser has wasm SIMD.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

// A function that returns lane 0 of `i32x4.relaxed_dot_i8x16_i7x16_add_s` on
// (-3, 100, 0) splats: -1200 where relaxed SIMD is right (node 20's V8 11.3,
// behind a flag, returns -2400; see wasm/bench/load.mjs).
const RELAXED_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 127, 3, 2, 1, 0, 7, 5, 1, 1, 102, 0, 0, 10, 37, 1, 35, 0, 65, 125,
  253, 15, 65, 228, 0, 253, 15, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 253, 147, 2, 253, 27, 0, 11,
]);

function hasRelaxedSimd() {
  if (!WebAssembly.validate(RELAXED_PROBE)) return false;
  try {
    return new WebAssembly.Instance(new WebAssembly.Module(RELAXED_PROBE)).exports.f() === -1200;
  } catch {
    return false;
  }
}

/** Most `Threads` in the browser. */
const MAX_THREADS = 32;

const params = new URL(self.location.href).searchParams;
const level = params.get('build') ?? (hasRelaxedSimd() ? 'relaxed' : WebAssembly.validate(SIMD_PROBE) ? 'simd' : 'scalar');
// Shared wasm memory needs cross-origin isolation (COOP and COEP headers:
// `make serve` sends them, the service worker adds them on static hosts).
const isolated = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
const threaded = isolated && level !== 'scalar' && params.get('threads') !== '0';
const build = threaded ? `${level}_mt` : level;
const threadNote = threaded
  ? null
  : params.get('threads') === '0'
    ? 'one thread: threads are off (?threads=0)'
    : level === 'scalar'
      ? 'one thread: the scalar build has no threaded variant'
      : 'one thread: the page is not cross-origin isolated, so there is no shared memory for threads';
/** Helper workers, started as `Threads` needs them and kept for later searches. */
const helpers = [];
const gpuMode = params.get('webgpu') ?? 'auto';
/** The worker's state: the engine, its copies of the network on the GPU, and what runs now. */
const state = {
  /** The wasm engine, once it has started. */
  engine: null,
  /** DeepChess's tower on the GPU, for the embeddings, where that is faster than the CPU. */
  gpu: null,
  /** Whether DeepChess's tower was ever built on the GPU (rebuilt with each network). */
  gpuFound: false,
  /** Whether the AlphaZero reimplementation's network plays (MCTS; no embeddings to prefill). */
  azPlaying: false,
  /** The AlphaZero network on the GPU, while one plays. */
  azGpu: null,
  /** Whether a loop of MCTS batches on the GPU runs ({@link thinkOnGpu}). */
  azLoop: false,
  /** The current search's GPU batches: leaves, batches, ms waiting for the GPU. */
  azStats: null,
  /** Resolves when the GPU is set up (or found missing). */
  gpuPending: null,
  /** The `WebGPU` option: whether the GPU may be used. */
  gpuWanted: gpuMode !== '0',
  /** Whether a UCI line is being handled (searching waits). */
  busy: false,
  /** Whether a slice of search is scheduled. */
  thinkScheduled: false,
};

const post = (lines) => {
  for (const line of lines) self.postMessage(line);
  dispatchHelpers();
};

/** Hands the helper tasks of a search that has just started to helper workers. */
function dispatchHelpers() {
  const tasks = state.engine?.takeHelperTasks();
  if (!tasks?.length) return;
  const [module, memory] = glue.threadShare();
  while (helpers.length < tasks.length) {
    const worker = new Worker(new URL('./helper.js', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => {
      if (data.error) report(data.error);
    };
    worker.onerror = (event) => report(`helper: ${event.message}`);
    worker.postMessage({ glue: new URL(`./deepchess_${build}.js`, import.meta.url).href, module, memory });
    helpers.push(worker);
  }
  tasks.forEach((task, i) => helpers[i].postMessage({ task }));
}

const report = (error) => post([`info string error: ${error?.message ?? error}`]);

// Yielding through a MessageChannel avoids setTimeout's 4 ms clamp.
const channel = new MessageChannel();
channel.port1.onmessage = () => {
  state.thinkScheduled = false;
  think();
};
const scheduleThink = () => {
  if (!state.thinkScheduled) {
    state.thinkScheduled = true;
    channel.port2.postMessage(null);
  }
};

function think() {
  if (state.busy || !state.engine || state.azLoop) return;
  const planes = state.azGpu && state.gpuWanted ? state.engine.gatherLeaves(AZ_BATCH) : undefined;
  if (planes) {
    thinkOnGpu(planes);
    return;
  }
  const end = performance.now() + SLICE_MS;
  try {
    while (state.engine.thinking && queue.length === 0 && performance.now() < end) post(state.engine.think(SLICE_NODES));
  } catch (error) {
    report(error);
    return;
  }
  if (queue.length) pump();
  else if (state.engine.thinking) scheduleThink();
}

/**
 * MCTS with the AlphaZero network by batches on the GPU: evaluate the
 * gathered leaves, apply them, gather the next. Messages are read while a
 * batch is out: `stop` answers at once and its batch's outputs are ignored.
 */
async function thinkOnGpu(planes) {
  state.azLoop = true;
  try {
    while (planes) {
      const started = performance.now();
      let outputs;
      try {
        outputs = planes.length ? await state.azGpu.evaluate(planes) : new Float32Array(0);
      } catch (error) {
        // The CPU path goes on with the same tree.
        state.engine.cancelLeaves();
        state.azGpu = null;
        report(`WebGPU disabled: ${error?.message ?? error}`);
        break;
      }
      if (state.azStats) {
        state.azStats.leaves += planes.length / PLANE_VALUES;
        state.azStats.batches += 1;
        state.azStats.ms += performance.now() - started;
      }
      const lines = state.engine.applyLeaves(outputs);
      const end = lines.findIndex((l) => l.startsWith('bestmove'));
      if (end >= 0 && state.azStats) {
        const { leaves, batches, ms } = state.azStats;
        lines.splice(end, 0, `info string webgpu mcts: ${leaves} leaves in ${batches} batches, ${Math.round(ms)} ms on the GPU`);
      }
      post(lines);
      planes = state.busy || !state.azGpu ? undefined : state.engine.gatherLeaves(AZ_BATCH);
    }
  } catch (error) {
    report(error);
  } finally {
    state.azLoop = false;
  }
  if (state.engine.thinking) scheduleThink();
}

async function pump() {
  if (state.busy || !state.engine) return;
  state.busy = true;
  try {
    while (queue.length) await handle(queue.shift());
  } finally {
    state.busy = false;
  }
  if (state.engine.thinking) scheduleThink();
}

async function handle(line) {
  const words = line.trim().split(/\s+/);
  try {
    if (words[0] === 'uci') {
      // The engine's own options, and this worker's: WebGPU.
      const suffix = threaded ? '-mt' : '';
      const lines = state.engine.handle(line).map((l) => (l.startsWith('id name ') ? `${l} wasm-${state.engine.kernel}${suffix}` : l));
      lines.splice(lines.length - 1, 0, `option name WebGPU type check default ${state.gpuWanted}`);
      if (threadNote) lines.splice(lines.length - 1, 0, `info string ${threadNote}`);
      post(lines);
    } else if (words[0] === 'setoption' && /^setoption\s+name\s+webgpu\s+value\s+/i.test(line.trim())) {
      state.gpuWanted = words[words.length - 1].toLowerCase() === 'true';
    } else if (words[0] === 'go' && words[1] !== 'perft') {
      // In auto mode searches start at once and use the GPU once it is ready;
      // with ?webgpu=1 they wait for it. (`go perft` counts moves: no GPU.)
      if (gpuMode === '1' && state.gpuPending) await state.gpuPending;
      if (state.gpu && state.gpuWanted && !state.azPlaying) await prefill();
      state.azStats = state.azGpu && state.gpuWanted ? { leaves: 0, batches: 0, ms: 0 } : null;
      post(state.engine.handle(line));
    } else {
      post(state.engine.handle(line));
      // The engine loads its embedded network itself: the GPU copy follows.
      if (/^setoption\s+name\s+evalfile\s+value\s+<embedded>$/i.test(line.trim())) await networkChanged();
      if (state.engine.quit) {
        for (const helper of helpers) helper.terminate();
        self.close();
      }
      const evalFile = state.engine.takeEvalFile();
      if (evalFile !== undefined) await loadEvalFile(evalFile);
    }
  } catch (error) {
    report(error);
  }
}

/** Embeds the positions the search meets first on the GPU, in one batch. */
async function prefill() {
  const started = performance.now();
  const batch = state.engine.firstPositions(GPU_PLIES, GPU_LIMIT);
  try {
    if (batch.len() === 0) return;
    const embeddings = await state.gpu.embed(batch);
    const count = state.engine.prefill(batch, embeddings);
    const ms = Math.round(performance.now() - started);
    post([`info string webgpu embedded ${count} positions in ${ms} ms`]);
  } catch (error) {
    // The CPU path computes the same values; note it and carry on without.
    state.gpu = null;
    report(`WebGPU disabled: ${error?.message ?? error}`);
  } finally {
    batch.free();
  }
}

async function loadEvalFile(url) {
  let bytes;
  let error;
  try {
    bytes = await fetchNetwork(url);
  } catch (e) {
    error = String(e?.message ?? e);
  }
  post(state.engine.loadNetwork(bytes, url, error));
  if (bytes && !error) await networkChanged();
}

/** Builds the GPU's copy of the network that now plays, the way it needs. */
async function networkChanged() {
  state.azPlaying = state.engine.azNetworkBytes() !== undefined;
  if (state.azPlaying) {
    state.azGpu = await createAzGpu(state.engine);
    if (state.azGpu) post([`info string webgpu: the AlphaZero network on ${state.azGpu.adapter || 'the GPU'}, ${AZ_BATCH} leaves per batch`]);
  } else {
    state.azGpu = null;
    if (state.gpu || state.gpuFound) state.gpu = await createGpu(state.engine);
  }
}

/**
 * The AlphaZero network on the first WebGPU adapter, or null where there is
 * none, or (in auto mode) where it evaluates a batch of leaves more slowly
 * than the CPU.
 */
function createAzGpu(wasm) {
  if (!glue.AzGpu) return null;
  // The convolutions cost the same whatever the planes hold.
  const planes = new Float32Array(AZ_BATCH * PLANE_VALUES);
  return gpuIfFaster(
    () => glue.AzGpu.create(wasm.azNetworkBytes()),
    (copy) => copy.evaluate(planes),
    () => wasm.evaluateLeavesOnCpu(planes),
  );
}

/** The Cache API store of downloaded networks; the service worker leaves it alone. */
const NETWORK_CACHE = 'networks';

/**
 * A network's bytes, downloaded once. A file named by its content,
 * `deepchess-<12 hex of sha256>.dcnn` (or `.dcsn`, a learner's network, or
 * `.dcaz`, the AlphaZero reimplementation's) as
 * every shipped network is, is stored
 * under that hash, so any URL of the same file (another host, a new version
 * of the site) is answered from the store, online or not; the download is
 * checked against its name. Other URLs are stored under the URL. Where the
 * Cache API is missing (an insecure origin), it is a plain download.
 */
async function fetchNetwork(url) {
  const absolute = new URL(url, self.location.href);
  const [, named, kind] = /deepchess-([0-9a-f]{12})\.(dcnn|dcsn|dcaz)$/.exec(absolute.pathname) ?? [];
  const key = named ? new URL(`/networks/${named}.${kind}`, self.location.origin) : absolute;
  const cache = self.caches ? await self.caches.open(NETWORK_CACHE).catch(() => null) : null;
  const hit = await cache?.match(key);
  if (hit) {
    post([`info string network ${url} from the cache`]);
    return new Uint8Array(await hit.arrayBuffer());
  }
  const response = await fetch(absolute);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (named) {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    const hash = [...digest.slice(0, 6)].map((b) => b.toString(16).padStart(2, '0')).join('');
    if (hash !== named) throw new Error(`the file's sha256 begins ${hash}, not ${named} as its name says`);
  }
  await cache?.put(key, new Response(bytes, { headers: { 'content-type': 'application/octet-stream' } }));
  post([`info string network ${url} downloaded (${bytes.length} bytes)${cache ? ', cached' : ''}`]);
  return bytes;
}

/**
 * The network on the first WebGPU adapter, or null where there is none or
 * (in auto mode) where it embeds a batch more slowly than the CPU: a
 * software adapter such as SwiftShader does.
 */
async function createGpu(wasm) {
  let batch = null;
  const firstPositions = () => (batch ??= wasm.firstPositions(GPU_PLIES, GPU_LIMIT));
  try {
    return await gpuIfFaster(
      () => glue.Gpu.create(wasm.networkBytes()),
      (copy) => copy.embed(firstPositions()),
      () => wasm.embedOnCpu(firstPositions()),
    );
  } finally {
    batch?.free();
  }
}

/**
 * The GPU copy that `create` resolves to (null where there is no adapter);
 * in auto mode only where `onGpu(copy)` runs a batch faster than `onCpu()`
 * runs the same one (timed once, after a first run compiles the pipelines).
 * Any error is no GPU: the CPU computes the same.
 */
async function gpuIfFaster(create, onGpu, onCpu) {
  if (!state.gpuWanted || !self.navigator.gpu) return null;
  try {
    const copy = await create();
    if (!copy || gpuMode === '1') return copy ?? null;
    await onGpu(copy);
    let started = performance.now();
    await onGpu(copy);
    const gpuMs = performance.now() - started;
    started = performance.now();
    onCpu();
    const cpuMs = performance.now() - started;
    return gpuMs < cpuMs ? copy : null;
  } catch {
    return null;
  }
}

const glue = await import(`./deepchess_${build}.js`);
try {
  await glue.default({ module_or_path: new URL(`./deepchess_${build}_bg.wasm`, import.meta.url) });
  state.engine = new glue.Engine();
  if (threaded) state.engine.setMaxThreads(Math.max(1, Math.min(MAX_THREADS, self.navigator.hardwareConcurrency ?? 1)));
} catch (error) {
  report(`cannot start the engine: ${error?.message ?? error}`);
}
// The GPU starts in the background; searches use it once it is ready.
if (state.engine && glue.Gpu) state.gpuPending = createGpu(state.engine).then((copy) => ((state.gpu = copy), (state.gpuFound = copy !== null)));
pump();
