// Loads the raw benchmark builds of deepchess-wasm (cargo feature `bench`).
// The Makefile passes their paths; without it, they are looked up in the
// cargo target directory.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

const target = process.env.CARGO_TARGET_DIR ?? resolve(import.meta.dirname, '../../target');

export const builds = {
  simd128: process.env.DEEPCHESS_WASM_SIMD
    ?? resolve(target, 'wasm32-unknown-unknown/release/deepchess_wasm.wasm'),
  scalar: process.env.DEEPCHESS_WASM_SCALAR
    ?? resolve(target, 'wasm-scalar/wasm32-unknown-unknown/release/deepchess_wasm.wasm'),
};

export const kernelNames = ['scalar', 'avx2', 'simd128'];

/** Instantiates one build and returns its exports. */
export async function load(build) {
  const bytes = await readFile(builds[build]);
  const { instance } = await WebAssembly.instantiate(bytes, {});
  return instance.exports;
}
