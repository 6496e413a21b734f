// WebGPU batched inference (chromium's --enable-unsafe-webgpu gives a
// SwiftShader adapter here) against the CPU path, and the quiet fallback:
// DeepChess's embeddings, and the AlphaZero network's MCTS leaves. (A
// software adapter evaluates the AlphaZero network some 35 times slower
// than the CPU, so these searches are short.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Chess } from 'chessops/chess';
import { parseUci } from 'chessops/util';
import { dist, start, uci } from './browser.mjs';

const NETS = JSON.parse(readFileSync(join(dist, 'nets', 'networks.json'), 'utf8'));
/** The AlphaZero reimplementation's shipped network, as the site serves it. */
const AZ_NET = NETS.find((n) => n.file.endsWith('.dcaz')).file;
/** A shipped DeepChess network besides the built-in one (the list never holds that); the test checks that its first layer is plain. */
const PLAIN_NET = NETS.find((n) => n.file.endsWith('.dcnn')).file;

/**
 * In the page: MCTS with the AlphaZero network by batches of leaves, each
 * batch evaluated on the GPU and on the CPU; the search goes on with the
 * GPU's outputs. Null where there is no adapter.
 */
function mctsOnGpuInPage(page) {
  return page.evaluate(async (file) => {
    const glue = await import('./engine/deepchess_simd.js');
    await glue.default({ module_or_path: new URL('engine/deepchess_simd_bg.wasm', document.baseURI) });
    const engine = new glue.Engine();
    const bytes = new Uint8Array(await (await fetch(`nets/${file}`)).arrayBuffer());
    const loaded = engine.loadNetwork(bytes, file, undefined);
    const gpu = await glue.AzGpu.create(engine.azNetworkBytes());
    if (!gpu) return null;
    const result = { loaded, leaves: 0, batches: 0, value: 0, logit: 0, gpuMs: 0, cpuMs: 0, lines: [] };
    for (const line of ['position startpos moves e2e4 e7e5 g1f3', 'go nodes 130']) result.lines.push(...engine.handle(line));
    while (engine.thinking) {
      const planes = engine.gatherLeaves(64);
      const n = planes.length / (22 * 64);
      let started = performance.now();
      const onGpu = await gpu.evaluate(planes);
      result.gpuMs += performance.now() - started;
      started = performance.now();
      const onCpu = engine.evaluateLeavesOnCpu(planes);
      result.cpuMs += performance.now() - started;
      if (onGpu.length !== onCpu.length) return { ...result, lengths: [onGpu.length, onCpu.length] };
      for (let i = 0; i < onCpu.length; i++) {
        const error = Math.abs(onGpu[i] - onCpu[i]);
        if (i < n) result.value = Math.max(result.value, error);
        else result.logit = Math.max(result.logit, error);
        if (!Number.isFinite(onGpu[i])) return { ...result, notFinite: i };
      }
      result.leaves += n;
      result.batches += 1;
      result.lines.push(...engine.applyLeaves(onGpu));
    }
    return result;
  }, AZ_NET);
}

/** In the page: a worker's `go infinite` with the AlphaZero network, stopped after its first line. */
function stopMctsInPage(page, workerUrl) {
  return page.evaluate(
    ({ file, workerUrl }) =>
      new Promise((resolve, reject) => {
        const worker = new Worker(new URL(workerUrl, document.baseURI), { type: 'module' });
        const out = [];
        let stopped = 0;
        const timer = setTimeout(() => reject(new Error(`timeout; got ${JSON.stringify(out)}`)), 120000);
        worker.onmessage = ({ data }) => {
          out.push(data);
          if (!stopped && / pv /.test(data)) {
            stopped = performance.now();
            worker.postMessage('stop');
          } else if (data.startsWith('bestmove')) {
            clearTimeout(timer);
            worker.terminate();
            resolve({ out, ms: performance.now() - stopped });
          }
        };
        for (const line of [`setoption name EvalFile value /nets/${file}`, 'position startpos', 'go infinite']) worker.postMessage(line);
      }),
    { file: AZ_NET, workerUrl },
  );
}

/**
 * In the page: embeds batches of first positions on the GPU and the CPU and
 * compares them byte for byte, with the built-in network or the shipped
 * network `file`. The result names the network's first layer.
 */
function compareInPage(page, file) {
  return page.evaluate(async (file) => {
    const glue = await import('./engine/deepchess_simd.js');
    await glue.default({ module_or_path: new URL('engine/deepchess_simd_bg.wasm', document.baseURI) });
    const engine = new glue.Engine();
    const loaded = file
      ? engine.loadNetwork(new Uint8Array(await (await fetch(`nets/${file}`)).arrayBuffer()), file, undefined)
      : engine.handle('uci');
    const gpu = await glue.Gpu.create(engine.networkBytes());
    if (!gpu) return null;
    const positions = [
      'position startpos',
      'position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6',
      'position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
      'position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
    ];
    const network = loaded.find((l) => /^info string (loaded )?network /.test(l)) ?? loaded.join(' | ');
    const result = { network, entries: 0, differing: 0, gpuMs: 0, cpuMs: 0 };
    for (const position of positions) {
      engine.handle(position);
      const batch = engine.firstPositions(2, 4096);
      let started = performance.now();
      const onGpu = await gpu.embed(batch);
      result.gpuMs += performance.now() - started;
      started = performance.now();
      const onCpu = engine.embedOnCpu(batch);
      result.cpuMs += performance.now() - started;
      result.entries += batch.len();
      if (onGpu.length !== onCpu.length) return { ...result, lengths: [onGpu.length, onCpu.length] };
      for (let i = 0; i < onCpu.length; i++) if (onGpu[i] !== onCpu[i]) result.differing++;
      batch.free();
    }
    return result;
  }, file);
}

const strip = (lines) => lines.filter((l) => l.startsWith('info depth')).map((l) => l.replace(/ nps \d+| time \d+/g, ''));

test('WebGPU embeddings equal the CPU path exactly, and the worker searches the same with them', async () => {
  const browser = await start({ webgpu: true });
  try {
    const page = await browser.page('/embed-example.html');
    // The built-in network's first layer is squared; the other's is not.
    for (const [file, squared] of [[undefined, true], [PLAIN_NET, false]]) {
      const result = await compareInPage(page, file);
      assert.ok(result, 'a WebGPU adapter is available with --enable-unsafe-webgpu');
      console.log(
        `webgpu, ${file ?? 'the built-in network'}: ${result.entries} embeddings, ${result.differing} bytes differ; ` +
          `GPU ${result.gpuMs.toFixed(0)} ms, CPU ${result.cpuMs.toFixed(0)} ms`,
      );
      assert.match(result.network, /^info string (loaded )?network /);
      assert.equal(/, first layer screlu /.test(result.network), squared, result.network);
      assert.equal(result.lengths, undefined);
      assert.ok(result.entries > 3000);
      assert.equal(result.differing, 0, 'tolerance: zero, the integer arithmetic is the same');
    }

    const go = ['position startpos moves d2d4 g8f6', 'go depth 5'];
    const gpuLines = await uci(page, ['uci', 'isready', ...go], '^bestmove', 'engine/worker.js?webgpu=1');
    // The page is cross-origin isolated, so the worker runs the threaded build.
    assert.match(gpuLines[0], /^id name DeepChess .* wasm-relaxed-mt$/);
    const prefill = gpuLines.find((l) => l.startsWith('info string webgpu embedded'));
    assert.match(prefill ?? '', /^info string webgpu embedded \d+ positions in \d+ ms$/, gpuLines.join('\n'));
    const cpuLines = await uci(page, go, '^bestmove', 'engine/worker.js?webgpu=0');
    assert.deepEqual(strip(gpuLines), strip(cpuLines));
    assert.equal(gpuLines.at(-1), cpuLines.at(-1));
    assert.deepEqual(browser.errors, []);
  } finally {
    await browser.close();
  }
});

test('MCTS with the AlphaZero network evaluates its leaves in batches on WebGPU, within tolerance of the CPU', async () => {
  const browser = await start({ webgpu: true });
  try {
    const page = await browser.page('/embed-example.html');
    const result = await mctsOnGpuInPage(page);
    assert.ok(result, 'a WebGPU adapter is available with --enable-unsafe-webgpu');
    console.log(
      `webgpu mcts: ${result.leaves} leaves in ${result.batches} batches; largest error: value ${result.value.toExponential(2)}, ` +
        `logit ${result.logit.toExponential(2)}; GPU ${result.gpuMs.toFixed(0)} ms, CPU ${result.cpuMs.toFixed(0)} ms`,
    );
    assert.match(result.loaded[0], /AlphaZero 6 blocks × 64 filters \(plays mcts\)$/);
    assert.equal(result.lengths, undefined);
    assert.equal(result.notFinite, undefined);
    // The tolerance stated in wasm/src/az_gpu.rs: the same f32 arithmetic, summed in another order.
    assert.ok(result.value <= 1e-4, `value error ${result.value}`);
    assert.ok(result.logit <= 1e-3, `logit error ${result.logit}`);
    // The first batch is the root; virtual loss spreads the rest over the
    // tree, and batches stop at the reports (64, 128) and the limit.
    assert.ok(result.leaves <= 130 && result.batches <= 6, `${result.leaves} leaves in ${result.batches} batches`);
    const infos = result.lines.filter((l) => /^info depth .* pv /.test(l));
    assert.match(infos.at(-1), / nodes 130 /, result.lines.join('\n'));
    assert.equal(infos.length, 3, 'reports at 64, 128 and 130 playouts, as the CPU search gives them');
    const best = result.lines.at(-1).split(' ')[1];
    const pos = Chess.default();
    for (const m of ['e2e4', 'e7e5', 'g1f3']) pos.play(parseUci(m));
    assert.ok(pos.isLegal(parseUci(best)), `bestmove ${best} is legal`);

    // The worker: the GPU path with ?webgpu=1, exactly `go nodes` playouts, and `stop` with a batch out.
    const lines = await uci(
      page,
      ['uci', `setoption name EvalFile value /nets/${AZ_NET}`, 'position startpos moves e2e4', 'go nodes 100'],
      '^bestmove',
      'engine/worker.js?webgpu=1',
      120000,
    );
    assert.ok(lines.some((l) => /^info string webgpu: the AlphaZero network on .*, 64 leaves per batch$/.test(l)), lines.join('\n'));
    assert.match(lines.at(-2), /^info string webgpu mcts: \d+ leaves in \d+ batches, \d+ ms on the GPU$/, lines.join('\n'));
    assert.match(lines.findLast((l) => l.startsWith('info depth')), / nodes 100 .* pv /);
    const stopped = await stopMctsInPage(page, 'engine/worker.js?webgpu=1');
    console.log(`webgpu mcts: stop answered in ${stopped.ms.toFixed(1)} ms`);
    assert.match(stopped.out.at(-1), /^bestmove [a-h][1-8][a-h][1-8]/, stopped.out.join('\n'));
    assert.deepEqual(browser.errors, []);
  } finally {
    await browser.close();
  }
});

test('without an adapter the engine stays on the CPU without a word', async () => {
  const browser = await start();
  try {
    const page = await browser.page('/embed-example.html');
    assert.equal(await compareInPage(page), null);
    const lines = await uci(page, ['uci', 'go depth 3'], '^bestmove', 'engine/worker.js?webgpu=1');
    assert.ok(!lines.some((l) => l.includes('webgpu') || l.includes('error')), lines.join('\n'));
    // The AlphaZero network too: MCTS on the CPU, and `stop` within a slice.
    assert.equal(await mctsOnGpuInPage(page), null);
    const az = await uci(
      page,
      [`setoption name EvalFile value /nets/${AZ_NET}`, 'position startpos moves e2e4', 'go nodes 200'],
      '^bestmove',
      'engine/worker.js?webgpu=1',
    );
    assert.ok(!az.some((l) => l.includes('webgpu') || l.includes('error')), az.join('\n'));
    assert.match(az.findLast((l) => l.startsWith('info depth')), / nodes 200 .* pv /);
    const stopped = await stopMctsInPage(page, 'engine/worker.js?webgpu=1');
    console.log(`cpu mcts: stop answered in ${stopped.ms.toFixed(1)} ms`);
    assert.match(stopped.out.at(-1), /^bestmove [a-h][1-8][a-h][1-8]/, stopped.out.join('\n'));
    assert.deepEqual(browser.errors, []);
  } finally {
    await browser.close();
  }
});
