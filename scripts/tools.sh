#!/usr/bin/env bash
# Installs, if missing, what the browser build needs: the wasm32 target,
# wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock (the two
# must match), and the npm packages of web/ (esbuild, chessground, chessops,
# binaryen's wasm-opt, playwright-core). Safe to run again: it only installs
# what is absent or out of date.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi

version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
installed=$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2 || true)
if [ "$installed" != "$version" ]; then
    echo "tools: installing wasm-bindgen-cli $version (found: ${installed:-none})"
    cargo install wasm-bindgen-cli --version "=$version" --force
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "tools: the site's build needs node and npm (Debian: apt-get install nodejs npm)" >&2
    exit 1
fi
if [ ! -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
    (cd web && npm ci --no-audit --no-fund)
fi
