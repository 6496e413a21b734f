#!/usr/bin/env bash
# Builds what `scripts/gpu-measure.sh` carries to a GPU machine: the trainer
# with flex, wgpu and cuda (`.gpu/deepchess.gz`), the TCEC games
# (`.gpu/tcec-public.pgn.zst`, unless `.gpu/data` holds a built dataset) and
# Debian's Vulkan loader (`.gl/`). Both
# folders must be ignored (`.git/info/exclude`).
#
# burn-cuda 0.22 (cubecl-cuda 0.11) links LLVM for its second kernel
# compiler, and LLVM's build script (tracel-llvm-bundler) downloads a
# prebuilt LLVM from GitHub. Our `cuda` feature compiles kernels through
# CUDA C++ and NVRTC instead (cubecl-cuda's `cpp`), so on a machine that
# reaches only package registries this script skips that download
# (`DOCS_RS=1`, which both build scripts honour) and links, in place of the
# LLVM functions the unused backend names, stubs that abort with a message.
# A machine with the bundle (any machine that reaches GitHub) builds
# `cargo build --release --features cuda` as usual and needs none of this.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/deepchess/target}"
deps=$CARGO_TARGET_DIR/release/deps
mkdir -p .gpu .gl

if [ -e "$HOME/.local/share/tracel/tracel-llvm-23.1.0-4" ]; then
    cargo build --release --locked -p deepchess-trainer --features cuda
else
    # Every crate but the binary builds (the link fails on LLVM's functions).
    DOCS_RS=1 cargo build --release --locked -p deepchess-trainer --features cuda --lib
    rustup component add llvm-tools >/dev/null
    nm=$(ls "$(rustc --print sysroot)"/lib/rustlib/*/bin/llvm-nm)
    stubs=$CARGO_TARGET_DIR/llvm-stubs
    mkdir -p "$stubs"
    {
        echo '#include <stdio.h>'
        echo '#include <stdlib.h>'
        echo 'static void missing(const char *name) {'
        echo '    fprintf(stderr, "deepchess: %s: this build has no LLVM (burn-cuda kernels go through NVRTC)\n", name);'
        echo '    abort();'
        echo '}'
        for rlib in "$deps"/libcubecl_llvm-*.rlib "$deps"/libpliron_llvm-*.rlib "$deps"/libllvm_sys-*.rlib \
            "$deps"/libcubecl_cuda-*.rlib; do
            "$nm" -u --format=just-symbols "$rlib" 2>/dev/null
        done | grep -E '^(LLVM_?[A-Z][A-Za-z0-9_]*|cubecl_(link_device_bitcode|free_message|set_llvm_option))$' | sort -u |
            sed 's/.*/void &(void) { missing("&"); }/'
    } >"$stubs/stubs.c"
    cc -O2 -c -fPIC "$stubs/stubs.c" -o "$stubs/stubs.o"
    ar rcs "$stubs/libllvm_stubs.a" "$stubs/stubs.o"
    echo "linking with $(grep -c '^void' "$stubs/stubs.c") stubs"
    DOCS_RS=1 cargo rustc --release --locked -p deepchess-trainer --features cuda --bin deepchess -- \
        -C link-arg="$stubs/libllvm_stubs.a"
fi
gzip -c "$CARGO_TARGET_DIR/release/deepchess" >.gpu/deepchess.gz
# The games, unless a built dataset travels instead (.gpu/data: a call
# carries 64 MiB in all, and the repository is part of it).
[ -f .gpu/data/meta.json ] || cp ../shared/data/tcec-public.pgn.zst .gpu/
if [ -z "$(ls .gl/*.deb 2>/dev/null)" ]; then
    o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
    mkdir -p /tmp/amd64/partial
    apt-get $o update >/dev/null
    (cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
fi
du -sh .gpu .gl
