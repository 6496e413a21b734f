// Loads the raw benchmark builds of deepchess-wasm (cargo feature `bench`).
// The Makefile passes their paths; without it, they are looked up in the
// cargo target directory.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

const target = process.env.CARGO_TARGET_DIR ?? resolve(import.meta.dirname, '../../target');

export const builds = {
  simd128: process.env.DEEPCHESS_WASM_SIMD
    ?? resolve(target, 'wasm32-unknown-unknown/release/deepchess_wasm.wasm'),
  relaxed: process.env.DEEPCHESS_WASM_RELAXED
    ?? resolve(target, 'wasm-relaxed/wasm32-unknown-unknown/release/deepchess_wasm.wasm'),
  scalar: process.env.DEEPCHESS_WASM_SCALAR
    ?? resolve(target, 'wasm-scalar/wasm32-unknown-unknown/release/deepchess_wasm.wasm'),
  // The threaded build's kernels (atomics, shared memory, the nightly's
  // rebuilt standard library): the same relaxed kernels, compiled for the
  // browser's threaded builds.
  relaxed_mt: process.env.DEEPCHESS_WASM_RELAXED_MT
    ?? resolve(target, 'wasm-relaxed-mt/wasm32-unknown-unknown/release/deepchess_wasm.wasm'),
};

export const kernelNames = ['scalar', 'avx2', 'simd128', 'relaxed', 'avx512'];

// A function that uses `i32x4.relaxed_dot_i8x16_i7x16_add_s` on (-3, 100, 0)
// splats and returns lane 0: -1200 where relaxed SIMD is right. Node 20's V8
// (11.3) has it only behind --experimental-wasm-relaxed-simd, and returns
// -2400 there: its dot-add sums each product twice.
const RELAXED_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 127, 3, 2, 1, 0, 7, 5, 1, 1, 102, 0, 0, 10, 37, 1, 35, 0, 65, 125, 253, 15, 65, 228, 0, 253, 15, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 253, 147, 2, 253, 27, 0, 11,
]);

/**
 * Why this WebAssembly engine cannot run the relaxed build, or null if it
 * can: it must validate relaxed SIMD and compute the dot product right.
 */
export async function relaxedUnsupported() {
  if (!WebAssembly.validate(RELAXED_PROBE)) return `no relaxed SIMD in this engine (node ${process.version})`;
  const { instance } = await WebAssembly.instantiate(RELAXED_PROBE);
  const lane = instance.exports.f();
  return lane === -1200 ? null : `relaxed dot product wrong in this engine (node ${process.version}): ${lane}, not -1200`;
}

/**
 * The imports a raw build needs: nothing, or for a threaded build the shared
 * memory it imports (`env.memory`, up to the 4 GiB it declares).
 */
export function importsFor(module) {
  const wantsMemory = WebAssembly.Module.imports(module).some((i) => i.kind === 'memory');
  return wantsMemory ? { env: { memory: new WebAssembly.Memory({ initial: 256, maximum: 65536, shared: true }) } } : {};
}

/** Instantiates one build and returns its exports. */
export async function load(build) {
  const module = await WebAssembly.compile(await readFile(builds[build]));
  const instance = await WebAssembly.instantiate(module, importsFor(module));
  return instance.exports;
}
