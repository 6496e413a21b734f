#!/usr/bin/env bash
# Training speed on an NVIDIA GPU machine: one call, every step
# bounded by `timeout`, every log under $OUT.
#
# Here (a machine with Rust and the package registries), once:
#   scripts/gpu-prepare.sh        # the binary (flex, wgpu, cuda), the Vulkan loader, the data
# There (no Rust, no network), from the repository root, with `.gpu` and `.gl` carried:
#   bash scripts/gpu-measure.sh [STEPS...]
# STEPS are single benches (cuda-distilled-16k, wgpu-value-16k, ...: `benches` below), a bench
# with CubeCL's profiler on, each kernel's share of the time (profile-cuda-distilled-16k, ...), or groups
# (`group` below: bench-cuda, bench-learners, bench-wgpu, bench-flex, goals, profiles), or the real runs
# data, value, az, siamese, pos2vec; by default: devices data bench-cuda bench-learners az value
# bench-wgpu siamese pos2vec bench-flex. With BUDGET=SECONDS no step starts after that many seconds.
# The summary (one line per measurement) ends the output and is $OUT/summary.txt.
set -u
OUT=${OUT:-/tmp/gpu-out}
mkdir -p "$OUT"
LOG=$OUT/log.txt
SUMMARY=/tmp/gpu-summary.txt
: >"$SUMMARY"
BIN=/tmp/deepchess
WORK=/tmp/gpu-work
mkdir -p "$WORK"

say() { echo "$*" | tee -a "$SUMMARY"; }

# The binary travels compressed.
if [ ! -x "$BIN" ]; then
    gzip -dc .gpu/deepchess.gz >"$BIN" && chmod +x "$BIN" || { say "no binary"; exit 1; }
fi
# Vulkan's loader (the driver's ICD is the machine's own).
if ! ldconfig -p | grep -q libvulkan.so.1; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
fi
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
# NVRTC: the toolkit's, else pip's.
nvrtc=$(find /usr/local/cuda*/ /usr/local/lib /opt -name 'libnvrtc.so*' 2>/dev/null | head -1)
[ -n "$nvrtc" ] && export LD_LIBRARY_PATH=$(dirname "$nvrtc")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -d /usr/local/cuda ] && export CUDA_PATH=/usr/local/cuda
export RUST_BACKTRACE=1

# run NAME SECONDS COMMAND...: the command's output to $OUT/NAME.txt and the log.
run() {
    local name=$1 limit=$2
    shift 2
    local start=$(date +%s%N)
    echo "=== $name: $*" >>"$LOG"
    timeout --kill-after=5 "$limit" "$@" >"$OUT/$name.txt" 2>&1
    local rc=$?
    cat "$OUT/$name.txt" >>"$LOG"
    echo "=== $name: exit $rc after $((($(date +%s%N) - start) / 1000000)) ms" >>"$LOG"
    echo "$rc"
}

# bench NAME DEVICE BATCH SHAPE-FLAGS...: one `train bench` line in the summary.
bench() {
    local name=$1 device=$2 batch=$3
    shift 3
    local rc
    rc=$(run "$name" "${BENCH_LIMIT:-45}" "$BIN" train bench --device "$device" --batch-size "$batch" --warmup 10 --steps 50 "$@")
    local rate=$(grep -o '[a-z]*/s *: [0-9]*' "$OUT/$name.txt" | sed 's/ *: / /')
    local split=$(grep -o '[0-9.]* ms building.*' "$OUT/$name.txt")
    # --split's phases (the AlphaZero step), one line.
    split="$split$(grep 'ms a step' "$OUT/$name.txt" | sed 's/ *: /: /' | tr '\n' ';')"
    say "$(printf '%-28s %-8s batch %-6s %s (exit %s) %s' "$name" "$device" "$batch" "${rate:--}" "$rc" "$split")"
}

# profile NAME DEVICE BATCH SHAPE-FLAGS...: a short `train bench` with
# CubeCL's profiler on (`cubecl.toml` in the folder it runs from: each kernel
# timed as it ends, so the step runs slower than unprofiled), and each
# kernel's share of the device time, the largest first, in $OUT/NAME.txt.
profile() {
    local name=$1 device=$2 batch=$3
    shift 3
    local dir=$WORK/$name
    mkdir -p "$dir"
    printf '[profiling.logger]\nlevel = "basic"\nfile = "%s"\nappend = false\n' "$dir/kernels.log" >"$dir/cubecl.toml"
    local rc
    rc=$(cd "$dir" && run "$name-bench" "${BENCH_LIMIT:-45}" "$BIN" train bench --device "$device" --batch-size "$batch" \
        --warmup 5 --steps 10 "$@")
    kernel_shares "$dir/kernels.log" >"$OUT/$name.txt"
    say "$(printf '%-28s %-8s batch %-6s (exit %s) %s' "$name" "$device" "$batch" "$rc" \
        "$(head -n 4 "$OUT/$name.txt" | tr '\n' ';')")"
}

# kernel_shares LOG: CubeCL's profiling lines (`| 1.234ms | kernel name`)
# summed by kernel, the largest total first: share, total ms, count, name.
kernel_shares() {
    awk -F'|' 'NF >= 3 {
        t = $2; gsub(/ /, "", t); name = $3; sub(/^ */, "", name); sub(/ *$/, "", name)
        if (t ~ /ns$/) v = t / 1e6; else if (t ~ /µs$/) v = t / 1e3; else if (t ~ /ms$/) v = t + 0
        else if (t ~ /s$/) v = t * 1e3; else next
        sub(/[<(\[{].*/, "", name); total[name] += v; count[name]++; all += v }
        END { for (n in total) printf "%5.1f%% %10.3f ms %7d  %s\n", 100 * total[n] / all, total[n], count[n], n }' "$1" |
        sort -rn | head -n 40
}

# train NAME EPOCHS LEARNER...: epochs of a real run; items/s of each epoch
# from its metrics.csv (the first epoch's include kernel compilation and
# autotuning).
train() {
    local name=$1 epochs=$2
    shift 2
    local rc
    rc=$(run "$name" 100 "$BIN" train "$@" --data "$WORK/data" --out "$WORK/$name" --max-epochs "$epochs" --quiet)
    local rate=$(tail -n +2 "$WORK/$name/metrics.csv" 2>/dev/null | awk -F, '{print $NF}' | tr '\n' ' ')
    cp "$WORK/$name/metrics.csv" "$OUT/$name.metrics.csv" 2>/dev/null
    say "$(printf '%-28s %s items/s (exit %s)' "$name" "${rate:--}" "$rc")"
}

# Each bench: its step name, device, batch and flags.
benches() {
    case $1 in
    cuda-distilled-16k) echo "cuda 16384 --gather device" ;;
    cuda-distilled-16k-host) echo "cuda 16384 --gather host" ;;
    cuda-distilled-16k-product) echo "cuda 16384 --gather device --first-layer product" ;;
    cuda-distilled-64k) echo "cuda 65536 --gather device" ;;
    cuda-full-16k) echo "cuda 16384 --full" ;;
    cuda-full-64k) echo "cuda 65536 --full" ;;
    cuda-value-16k) echo "cuda 16384 --learner value --gather device" ;;
    cuda-value-16k-host) echo "cuda 16384 --learner value --gather host" ;;
    cuda-value-16k-product) echo "cuda 16384 --learner value --gather device --first-layer product" ;;
    cuda-value-64k) echo "cuda 65536 --learner value --gather device" ;;
    cuda-az-6x64-1k) echo "cuda 1024 --learner az" ;;
    cuda-az-6x64-1k-split) echo "cuda 1024 --learner az --split" ;;
    cuda-az-6x64-1k-burnconv) echo "cuda 1024 --learner az --conv burn" ;;
    cuda-az-6x64-4k) echo "cuda 4096 --learner az" ;;
    cuda-az-11x256-256) echo "cuda 256 --learner az --blocks 11 --filters 256" ;;
    cuda-az-19x256-256) echo "cuda 256 --learner az --blocks 19 --filters 256" ;;
    wgpu-distilled-16k) echo "wgpu:discrete 16384" ;;
    wgpu-value-16k) echo "wgpu:discrete 16384 --learner value --gather device" ;;
    wgpu-full-16k) echo "wgpu:discrete 16384 --full" ;;
    flex-distilled-16k) echo "flex 16384" ;;
    esac
}

# The groups of steps. Batches gathered on the device (what training does
# on a GPU) beside built on the host (the old way), and the first layer as
# the embedding bag's kernels (training's) beside the one-hot product (the
# old way).
group() {
    case $1 in
    bench-cuda) echo cuda-distilled-16k cuda-distilled-16k-host cuda-distilled-16k-product cuda-distilled-64k \
        cuda-full-16k cuda-full-64k ;;
    bench-learners) echo cuda-value-16k cuda-value-16k-host cuda-value-16k-product cuda-value-64k \
        cuda-az-6x64-1k cuda-az-6x64-1k-split cuda-az-6x64-1k-burnconv cuda-az-6x64-4k cuda-az-19x256-256 ;;
    bench-wgpu) echo wgpu-distilled-16k wgpu-value-16k wgpu-full-16k ;;
    bench-flex) echo flex-distilled-16k ;;
    # The issue's goals, each once, in a few minutes.
    goals) echo cuda-value-16k cuda-distilled-16k cuda-full-16k cuda-az-6x64-1k cuda-az-6x64-1k-split \
        cuda-az-6x64-1k-burnconv \
        cuda-distilled-16k-product wgpu-value-16k wgpu-distilled-16k wgpu-full-16k cuda-value-64k \
        cuda-az-11x256-256 ;;
    # Where a step's device time goes, kernel by kernel.
    profiles) echo profile-cuda-distilled-16k profile-cuda-value-16k profile-cuda-az-6x64-1k ;;
    *) echo "$1" ;;
    esac
}

steps=()
for step in "${@:-devices data bench-cuda bench-learners az value bench-wgpu siamese pos2vec bench-flex}"; do
    for s in $step; do
        # shellcheck disable=SC2207
        steps+=($(group "$s"))
    done
done
# BUDGET (seconds, optional): no step starts past it.
start_all=$(date +%s)
for step in "${steps[@]}"; do
    if [ -n "${BUDGET:-}" ] && [ $(($(date +%s) - start_all)) -ge "$BUDGET" ]; then
        say "$step: skipped (past BUDGET=$BUDGET s)"
        continue
    fi
    if [ "${step#profile-}" != "$step" ] && [ -n "$(benches "${step#profile-}")" ]; then
        # shellcheck disable=SC2046
        profile "$step" $(benches "${step#profile-}")
        continue
    fi
    if [ -n "$(benches "$step")" ]; then
        # shellcheck disable=SC2046
        bench "$step" $(benches "$step")
        continue
    fi
    case $step in
    devices)
        nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv >>"$SUMMARY" 2>&1
        nproc >>"$SUMMARY"
        run devices 60 "$BIN" train devices >/dev/null
        cat "$OUT/devices.txt" >>"$SUMMARY"
        ;;
    data)
        rc=$(run data 60 "$BIN" data build --pgn .gpu/tcec-public.pgn.zst --out "$WORK/data" --all-positions \
            --include-draws --quiet)
        say "data build (exit $rc): $(grep -i 'positions\|train' "$OUT/data.txt" | tail -n 2 | tr '\n' ' ')"
        ;;
    value)
        train value-cuda-16k 2 value --device cuda --per-epoch 2000000 --batch-size 16384
        ;;
    az)
        train az-cuda-6x64 2 az --supervised --device cuda --per-epoch 50000 --batch-size 1024
        ;;
    siamese)
        train siamese-full-cuda-16k 1 siamese --full --device cuda --per-epoch 2000000 --batch-size 16384
        ;;
    pos2vec)
        train pos2vec-cuda 1 pos2vec --device cuda --per-epoch 400000 --batch-size 4096
        ;;
    *) say "unknown step $step" ;;
    esac
done
# $OUT brings back 8 files: the logs travel as one archive.
tar -C "$OUT" -czf /tmp/logs.tar.gz . && rm -f "$OUT"/*.txt "$OUT"/*.csv && mv /tmp/logs.tar.gz "$OUT/"
cp "$SUMMARY" "$OUT/summary.txt"
echo
echo "---- summary"
cat "$SUMMARY"
