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
// `?webgpu=auto|1|0` (default auto): batched WebGPU inference where it is
// faster than the CPU (measured once at start), always, or never.
//
// A worker has one thread, so the search runs in node-budgeted slices of a
// few milliseconds and yields to the event loop between them: `stop` and
// `isready` are answered within one slice, even during `go infinite`.

/** Nodes per call into the engine. */
const SLICE_NODES = 1024;
/** Wall time, in ms, before yielding to read messages. */
const SLICE_MS = 8;
/** How deep and how many positions the WebGPU batch embeds before `go`. */
const GPU_PLIES = 2;
const GPU_LIMIT = 4096;

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

const params = new URL(self.location.href).searchParams;
const build = params.get('build') ?? (hasRelaxedSimd() ? 'relaxed' : WebAssembly.validate(SIMD_PROBE) ? 'simd' : 'scalar');
let engine = null;
let gpu = null;
/** Resolves when the GPU is set up (or found missing). */
let gpuPending = null;
const gpuMode = params.get('webgpu') ?? 'auto';
let gpuWanted = gpuMode !== '0';
let busy = false;
let thinkScheduled = false;

const post = (lines) => {
  for (const line of lines) self.postMessage(line);
};

const report = (error) => post([`info string error: ${error?.message ?? error}`]);

// Yielding through a MessageChannel avoids setTimeout's 4 ms clamp.
const channel = new MessageChannel();
channel.port1.onmessage = () => {
  thinkScheduled = false;
  think();
};
const scheduleThink = () => {
  if (!thinkScheduled) {
    thinkScheduled = true;
    channel.port2.postMessage(null);
  }
};

function think() {
  if (busy || !engine) return;
  const end = performance.now() + SLICE_MS;
  try {
    while (engine.thinking && queue.length === 0 && performance.now() < end) post(engine.think(SLICE_NODES));
  } catch (error) {
    report(error);
    return;
  }
  if (queue.length) pump();
  else if (engine.thinking) scheduleThink();
}

async function pump() {
  if (busy || !engine) return;
  busy = true;
  try {
    while (queue.length) await handle(queue.shift());
  } finally {
    busy = false;
  }
  if (engine.thinking) scheduleThink();
}

async function handle(line) {
  const words = line.trim().split(/\s+/);
  try {
    if (words[0] === 'uci') {
      // The engine's own options, and this worker's: WebGPU.
      const lines = engine.handle(line).map((l) => (l.startsWith('id name ') ? `${l} wasm-${engine.kernel}` : l));
      lines.splice(lines.length - 1, 0, `option name WebGPU type check default ${gpuWanted}`);
      post(lines);
    } else if (words[0] === 'setoption' && /^setoption\s+name\s+webgpu\s+value\s+/i.test(line.trim())) {
      gpuWanted = words[words.length - 1].toLowerCase() === 'true';
    } else if (words[0] === 'go') {
      // In auto mode searches start at once and use the GPU once it is ready;
      // with ?webgpu=1 they wait for it.
      if (gpuMode === '1' && gpuPending) await gpuPending;
      if (gpu && gpuWanted) await prefill();
      post(engine.handle(line));
    } else {
      post(engine.handle(line));
      if (engine.quit) self.close();
      const evalFile = engine.takeEvalFile();
      if (evalFile !== undefined) await loadEvalFile(evalFile);
    }
  } catch (error) {
    report(error);
  }
}

/** Embeds the positions the search meets first on the GPU, in one batch. */
async function prefill() {
  const started = performance.now();
  const batch = engine.frontier(GPU_PLIES, GPU_LIMIT);
  try {
    if (batch.len() === 0) return;
    const embeddings = await gpu.embed(batch);
    const count = engine.prefill(batch, embeddings);
    const ms = Math.round(performance.now() - started);
    post([`info string webgpu embedded ${count} positions in ${ms} ms`]);
  } catch (error) {
    // The CPU path computes the same values; note it and carry on without.
    gpu = null;
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
  post(engine.loadNetwork(bytes, url, error));
  if (gpu && bytes && !error) gpu = await createGpu(engine);
}

/** The Cache API store of downloaded networks; the service worker leaves it alone. */
const NETWORK_CACHE = 'networks';

/**
 * A network's bytes, downloaded once. A file named by its content,
 * `deepchess-<12 hex of sha256>.dcnn` as every shipped network is, is stored
 * under that hash, so any URL of the same file (another host, a new version
 * of the site) is answered from the store, online or not; the download is
 * checked against its name. Other URLs are stored under the URL. Where the
 * Cache API is missing (an insecure origin), it is a plain download.
 */
async function fetchNetwork(url) {
  const absolute = new URL(url, self.location.href);
  const named = /deepchess-([0-9a-f]{12})\.dcnn$/.exec(absolute.pathname)?.[1];
  const key = named ? new URL(`/networks/${named}.dcnn`, self.location.origin) : absolute;
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
async function createGpu(engine) {
  if (!gpuWanted || !self.navigator.gpu) return null;
  try {
    const gpu = await glue.Gpu.create(engine.networkBytes());
    if (!gpu || gpuMode === '1') return gpu ?? null;
    const batch = engine.frontier(GPU_PLIES, GPU_LIMIT);
    try {
      await gpu.embed(batch); // compiles the pipeline
      let started = performance.now();
      await gpu.embed(batch);
      const gpuMs = performance.now() - started;
      started = performance.now();
      engine.embedOnCpu(batch);
      const cpuMs = performance.now() - started;
      return gpuMs < cpuMs ? gpu : null;
    } finally {
      batch.free();
    }
  } catch {
    return null;
  }
}

const glue = await import(`./deepchess_${build}.js`);
try {
  await glue.default({ module_or_path: new URL(`./deepchess_${build}_bg.wasm`, import.meta.url) });
  engine = new glue.Engine();
} catch (error) {
  report(`cannot start the engine: ${error?.message ?? error}`);
}
// The GPU starts in the background; searches use it once it is ready.
if (engine && glue.Gpu) gpuPending = createGpu(engine).then((g) => (gpu = g));
pump();
