#!/usr/bin/env bash
# The works' own-scale runs on a GPU machine, continued from their last
# checkpoints: one call trains for at most MINUTES (default 8), each run
# stopping itself at a checkpoint before the time is up (`--stop-after`),
# and brings every run directory back as an archive, to be carried to the
# next call (on any machine, any device) and resumed.
#
# The runs, in order (each continues where the last call left it; a
# finished one is skipped by its own `--resume`):
#   1. pos2vec: the DeepChess paper's Pos2Vec pretraining of the full tower (`--preset paper`)
#   2. siamese: the paper's full Siamese network from it (`--preset paper`, 1,000 epochs)
# on the decisive games of the carried PGN files, sampled by the paper's rule
# (ten positions a game, none from the first five moves or right after a capture).
#
# Here, once: scripts/gpu-prepare.sh (the binary, the TCEC games, the Vulkan
# loader), then put the archives the last call brought back, if any, in
# .gpu/runs/ (both folders ignored: .git/info/exclude).
# There, from the repository root:
#   bash scripts/gpu-train.sh [MINUTES]
# Brings back in $OUT: pos2vec.tar.gz, siamese.tar.gz (config, metrics,
# checkpoint: carry them as .gpu/runs/ next time) and log.txt.
# DEVICE (default cuda) and PGN (default .gpu/*.pgn.zst) may be set; with
# DEVICE=flex it runs anywhere (the test of this script does).
set -u
cd "$(dirname "$0")/.."
MINUTES=${1:-8}
DEVICE=${DEVICE:-cuda}
OUT=${OUT:-/tmp/gpu-out}
BIN=${BIN:-/tmp/deepchess}
WORK=${WORK:-/tmp/gpu-work}
mkdir -p "$OUT" "$WORK"
LOG=$OUT/log.txt
start=$(date +%s)
say() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$LOG"; }
# Minutes left of the call, less a margin for packing the runs.
left() { awk -v s="$start" -v n="$(date +%s)" -v m="$MINUTES" 'BEGIN { printf "%.2f", m - (n - s) / 60 - 0.5 }'; }

if [ ! -x "$BIN" ]; then
    gzip -dc .gpu/deepchess.gz >"$BIN" && chmod +x "$BIN" || { say "no binary"; exit 1; }
fi
# As scripts/gpu-measure.sh: NVRTC from the toolkit or pip.
nvrtc=$(find /usr/local/cuda*/ /usr/local/lib /opt -name 'libnvrtc.so*' 2>/dev/null | head -1)
[ -n "$nvrtc" ] && export LD_LIBRARY_PATH=$(dirname "$nvrtc")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -d /usr/local/cuda ] && export CUDA_PATH=/usr/local/cuda

# The runs the last call brought back.
for archive in .gpu/runs/*.tar.gz; do
    [ -f "$archive" ] && tar -C "$WORK" -xzf "$archive" && say "resuming $(basename "$archive" .tar.gz)"
done

# The dataset: the same files and options give the same dataset on every call.
PGN=${PGN:-$(ls .gpu/*.pgn.zst 2>/dev/null | tr '\n' ' ')}
if [ ! -f "$WORK/data/meta.json" ]; then
    # shellcheck disable=SC2086
    "$BIN" data build --pgn $PGN --out "$WORK/data" --quiet >>"$LOG" 2>&1 || { say "data build failed"; exit 1; }
fi
say "data: $(grep -o '"decisive_games": [0-9]*' "$WORK/data/meta.json" | head -n 1)"

# train NAME ARGS...: continues the run in $WORK/NAME for the minutes left.
train() {
    local name=$1
    shift
    local minutes resume=
    minutes=$(left)
    if awk -v m="$minutes" 'BEGIN { exit !(m < 0.5) }'; then
        say "$name: no time left"
        return
    fi
    [ -f "$WORK/$name/state.json" ] && resume=--resume
    say "$name: up to $minutes minutes $resume"
    # The process's own limit, a minute past the run's, in case an epoch overruns.
    timeout --kill-after=10 "$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 + 60 }')" \
        "$BIN" train "$@" --data "$WORK/data" --out "$WORK/$name" --device "$DEVICE" \
        --stop-after "$minutes" --quiet $resume >>"$LOG" 2>&1
    say "$name: exit $?; $(tail -n 1 "$WORK/$name/metrics.csv" 2>/dev/null)"
}

# finished NAME: whether the run's checkpoint holds all its epochs.
finished() {
    local state=$WORK/$1/state.json
    [ -f "$state" ] || return 1
    local done total
    done=$(grep -o '"epochs_done": *[0-9]*' "$state" | grep -o '[0-9]*$')
    total=$(grep -o '"epochs_total": *[0-9]*' "$state" | grep -o '[0-9]*$')
    [ -n "$done" ] && [ "$done" = "$total" ]
}

# ARGS (optional) are added to every run's command line (a test's smaller epochs).
# shellcheck disable=SC2086
train pos2vec pos2vec --preset paper ${ARGS:-}
# The Siamese network starts from the finished pretraining only.
if finished pos2vec; then
    # shellcheck disable=SC2086
    train siamese siamese --preset paper --init "$WORK/pos2vec" ${ARGS:-}
else
    say "siamese: waits for pos2vec to finish"
fi

# Each run directory as one archive (well under the 16 MiB a file).
for name in pos2vec siamese; do
    [ -d "$WORK/$name" ] && tar -C "$WORK" -czf "$OUT/$name.tar.gz" "$name"
done
ls -la "$OUT" | tee -a "$LOG"
