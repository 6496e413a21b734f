#!/usr/bin/env bash
# Training speed on an NVIDIA GPU machine: one call, every step
# bounded by `timeout`, every log under $OUT.
#
# Here (a machine with Rust and the package registries), once:
#   scripts/gpu-prepare.sh        # the binary (flex, wgpu, cuda), the Vulkan loader, the data
# There (no Rust, no network), from the repository root, with `.gpu` and `.gl` carried:
#   bash scripts/gpu-measure.sh [STEPS...]
# STEPS default to all of: devices data bench-cuda bench-learners az value bench-wgpu siamese pos2vec
# bench-flex
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
    rc=$(run "$name" 45 "$BIN" train bench --device "$device" --batch-size "$batch" --warmup 10 --steps 50 "$@")
    local rate=$(grep -o '[a-z]*/s *: [0-9]*' "$OUT/$name.txt" | sed 's/ *: / /')
    local split=$(grep -o '[0-9.]* ms building.*' "$OUT/$name.txt")
    # --split's phases (the AlphaZero step), one line.
    split="$split$(grep 'ms a step' "$OUT/$name.txt" | sed 's/ *: /: /' | tr '\n' ';')"
    say "$(printf '%-28s %-8s batch %-6s %s (exit %s) %s' "$name" "$device" "$batch" "${rate:--}" "$rc" "$split")"
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

steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(devices data bench-cuda bench-learners az value bench-wgpu siamese pos2vec bench-flex)
for step in "${steps[@]}"; do
    case $step in
    devices)
        nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv >>"$SUMMARY" 2>&1
        nproc >>"$SUMMARY"
        run devices 60 "$BIN" train devices >/dev/null
        cat "$OUT/devices.txt" >>"$SUMMARY"
        ;;
    bench-cuda)
        # Batches gathered on the device (what training does on a GPU), and
        # built on the host (the old way) for the comparison; the first layer
        # as the embedding bag's kernels (training's), and as the one-hot
        # product (the old way).
        bench cuda-distilled-16k cuda 16384 --gather device
        bench cuda-distilled-16k-host cuda 16384 --gather host
        bench cuda-distilled-16k-product cuda 16384 --gather device --first-layer product
        bench cuda-distilled-64k cuda 65536 --gather device
        bench cuda-full-16k cuda 16384 --full
        bench cuda-full-64k cuda 65536 --full
        ;;
    bench-learners)
        # The value step with its batches gathered on the device (what
        # `train value` does on a GPU) and built on the host (the old way).
        bench cuda-value-16k cuda 16384 --learner value --gather device
        bench cuda-value-16k-host cuda 16384 --learner value --gather host
        bench cuda-value-16k-product cuda 16384 --learner value --gather device --first-layer product
        bench cuda-value-64k cuda 65536 --learner value --gather device
        bench cuda-az-6x64-1k cuda 1024 --learner az
        bench cuda-az-6x64-1k-split cuda 1024 --learner az --split
        bench cuda-az-6x64-4k cuda 4096 --learner az
        bench cuda-az-19x256-256 cuda 256 --learner az --blocks 19 --filters 256
        ;;
    bench-wgpu)
        bench wgpu-distilled-16k wgpu:discrete 16384
        bench wgpu-value-16k wgpu:discrete 16384 --learner value --gather device
        bench wgpu-full-16k wgpu:discrete 16384 --full
        ;;
    bench-flex)
        bench flex-distilled-16k flex 16384
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
