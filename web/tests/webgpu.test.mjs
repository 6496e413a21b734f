// WebGPU batched inference (chromium's --enable-unsafe-webgpu gives a
// SwiftShader adapter here) against the CPU path, and the quiet fallback.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { start, uci } from './browser.mjs';

/** In the page: embeds frontier batches on the GPU and the CPU and compares them byte for byte. */
function compareInPage(page) {
  return page.evaluate(async () => {
    const glue = await import('./engine/deepchess_simd.js');
    await glue.default({ module_or_path: new URL('engine/deepchess_simd_bg.wasm', document.baseURI) });
    const engine = new glue.Engine();
    const gpu = await glue.Gpu.create(engine.networkBytes());
    if (!gpu) return null;
    const positions = [
      'position startpos',
      'position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6',
      'position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
      'position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
    ];
    const result = { entries: 0, differing: 0, gpuMs: 0, cpuMs: 0 };
    for (const position of positions) {
      engine.handle(position);
      const batch = engine.frontier(2, 4096);
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
  });
}

const strip = (lines) => lines.filter((l) => l.startsWith('info depth')).map((l) => l.replace(/ nps \d+| time \d+/g, ''));

test('WebGPU embeddings equal the CPU path exactly, and the worker searches the same with them', async () => {
  const browser = await start({ webgpu: true });
  try {
    const page = await browser.page('/embed-example.html');
    const result = await compareInPage(page);
    assert.ok(result, 'a WebGPU adapter is available with --enable-unsafe-webgpu');
    console.log(
      `webgpu: ${result.entries} embeddings, ${result.differing} bytes differ; ` +
        `GPU ${result.gpuMs.toFixed(0)} ms, CPU ${result.cpuMs.toFixed(0)} ms`,
    );
    assert.equal(result.lengths, undefined);
    assert.ok(result.entries > 3000);
    assert.equal(result.differing, 0, 'tolerance: zero, the integer arithmetic is the same');

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

test('without an adapter the engine stays on the CPU without a word', async () => {
  const browser = await start();
  try {
    const page = await browser.page('/embed-example.html');
    assert.equal(await compareInPage(page), null);
    const lines = await uci(page, ['uci', 'go depth 3'], '^bestmove', 'engine/worker.js?webgpu=1');
    assert.ok(!lines.some((l) => l.includes('webgpu') || l.includes('error')), lines.join('\n'));
    assert.deepEqual(browser.errors, []);
  } finally {
    await browser.close();
  }
});
