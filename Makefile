# DeepChess build, test and benchmark entry points. `make test` is what CI runs.

CARGO ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)
WASM_TARGET := wasm32-unknown-unknown
# The SIMD128 build uses .cargo/config.toml's flags; the scalar build turns SIMD off
# and lives in its own target directory so the two never rebuild each other.
WASM_SIMD := $(TARGET_DIR)/$(WASM_TARGET)/release/deepchess_wasm.wasm
WASM_SCALAR := $(TARGET_DIR)/wasm-scalar/$(WASM_TARGET)/release/deepchess_wasm.wasm

export DEEPCHESS_WASM_SIMD := $(WASM_SIMD)
export DEEPCHESS_WASM_SCALAR := $(WASM_SCALAR)

# The trainer is tested with burn's CPU backend (flex); the wgpu backend, the
# default for desktop GPUs, is type-checked (`check-wgpu`): it compiles for
# about half an hour from a cold cache on two cores.
TRAINER_CPU := -p deepchess-trainer --no-default-features --features flex

.PHONY: test lint build-core test-native test-wasm check-wgpu wasm-bench-builds bench bench-native bench-wasm

## The wgpu build, lints, the no_std and wasm32 builds of core, the SIMD128
## kernels against the scalar oracle under node, and every test of the
## workspace (last, so the run ends on the test runner's summary).
test: check-wgpu lint build-core test-wasm test-native

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --exclude deepchess-trainer --all-targets --locked -- -D warnings
	$(CARGO) clippy $(TRAINER_CPU) --all-targets --locked -- -D warnings

build-core:
	$(CARGO) build -p deepchess-core --no-default-features --locked
	$(CARGO) build -p deepchess-core --target $(WASM_TARGET) --no-default-features --locked

test-native:
	$(CARGO) test --workspace --exclude deepchess-trainer --locked
	$(CARGO) test $(TRAINER_CPU) --locked

check-wgpu:
	$(CARGO) check -p deepchess-trainer --features wgpu --locked

test-wasm: wasm-bench-builds
	node --test wasm/tests/

wasm-bench-builds:
	$(CARGO) build -p deepchess-wasm --target $(WASM_TARGET) --release --features bench --locked
	RUSTFLAGS="-C target-feature=-simd128" $(CARGO) build -p deepchess-wasm --target $(WASM_TARGET) \
		--release --features bench --locked --target-dir $(TARGET_DIR)/wasm-scalar

## Inference speed: native (scalar vs AVX2), then wasm under node (scalar vs SIMD128).
bench: bench-native bench-wasm

bench-native:
	$(CARGO) bench -p deepchess-core --bench inference --locked

bench-wasm: wasm-bench-builds
	node wasm/bench/run.mjs
