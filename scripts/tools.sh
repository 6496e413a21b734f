#!/usr/bin/env bash
# Installs, if missing, what the browser build needs: the wasm32 target, a
# pinned nightly for the threaded builds,
# wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock (the two
# must match), and the npm packages of web/ (esbuild, chessground, chessops,
# binaryen's wasm-opt, playwright-core). With --test, also what `make test`
# needs: clippy, rustfmt, Debian's chromium and chromium-driver, Open MPI
# for the trainer's MPI tests and lavapipe for its wgpu test (first, so
# that a missing prerequisite shows in the first seconds, not after a build).
# Safe to run again: it only installs what is absent or out of date.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/apt.sh

if [ "${1:-}" = "--test" ]; then
    # The browser tests drive Debian's chromium: Playwright (npm
    # playwright-core) directly, wasm-bindgen-test through chromedriver.
    apt_install_missing chromium chromium-driver
    # The trainer's MPI tests: Open MPI, and libclang for the mpi crate's bindings.
    apt_install_missing openmpi-bin libopenmpi-dev libclang-dev
    # The trainer's wgpu test: Mesa's software Vulkan driver (lavapipe) and
    # the Vulkan loader, an adapter wgpu finds on any machine.
    apt_install_missing mesa-vulkan-drivers libvulkan1
    rustup component list --installed | grep -q '^clippy' || rustup component add clippy
    rustup component list --installed | grep -q '^rustfmt' || rustup component add rustfmt
    # The fuzz smoke run (make fuzz-smoke) drives libFuzzer through cargo-fuzz.
    fuzz_version=0.13.2
    if [ "$(cargo fuzz --version 2>/dev/null | cut -d' ' -f2)" != "$fuzz_version" ]; then
        cargo install cargo-fuzz --version "=$fuzz_version" --locked --force
    fi
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi

# The threaded browser builds: the nightly pinned in wasm/threads-toolchain,
# with the standard library's source (-Z build-std) and the wasm32 target.
nightly=$(cat wasm/threads-toolchain)
if ! rustup +"$nightly" component list --installed 2>/dev/null | grep -q '^rust-src'; then
    rustup toolchain install "$nightly" --profile minimal --component rust-src --target wasm32-unknown-unknown
fi

version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
installed=$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2 || true)
if [ "$installed" != "$version" ]; then
    echo "tools: installing wasm-bindgen-cli $version (found: ${installed:-none})"
    # Its own Cargo.lock first (--locked). A registry that lacks one of the
    # versions locked there (seen here: webpki-roots 1.0.11, which this
    # machine's crates.io index does not list) cannot build that; then the
    # same wasm-bindgen-cli version is built with dependencies resolved afresh.
    # The first try's output is kept aside, so that its expected failure does
    # not print an error before the retry; it is shown if the retry fails too.
    # Without default features: they add rustls (and ring) for HTTPS, which
    # neither wasm-bindgen nor its test runner needs here (the runner speaks
    # plain HTTP to a local chromedriver); about a minute less to compile.
    install=(cargo install wasm-bindgen-cli --version "=$version" --no-default-features --force)
    first=$(mktemp)
    if ! "${install[@]}" --locked >"$first" 2>&1; then
        echo "tools: wasm-bindgen-cli $version's own Cargo.lock does not resolve against this registry; building it with its dependencies resolved afresh"
        if ! "${install[@]}"; then
            echo "tools: both tries failed; the first (--locked) said:" >&2
            cat "$first" >&2
            rm -f "$first"
            exit 1
        fi
    fi
    rm -f "$first"
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "tools: the site's build needs node and npm (Debian: apt-get install nodejs npm)" >&2
    exit 1
fi
if [ ! -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
    # npm warns that chessops's `@badrap/result` asks for node 22 or newer;
    # the site builds and runs its tests under node 20 too (the wasm tests
    # use the node 22 that npm installs beside it), so only errors are shown.
    (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi
