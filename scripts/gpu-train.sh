#!/usr/bin/env bash
# The works' own-scale runs on a GPU machine, continued from their last
# checkpoints: one call trains for at most MINUTES (default 8), each run
# stopping itself at a checkpoint before the time is up (`--stop-after`),
# and brings every run directory back as an archive, to be carried to the
# next call (on any machine, any device) and resumed.
#
# The runs, in order (each continues where the last call left it; a
# finished one is skipped by its own `--resume`; RUNS picks them, by
# default the paper's pipeline, pos2vec siamese distill):
#   pos2vec    the DeepChess paper's Pos2Vec pretraining of the full tower (`--preset paper`)
#   siamese    the paper's full Siamese network from it (1,000 epochs), once pos2vec is done
#   distill    the paper's distillation of it into the small network, once siamese is done
#   az         the AlphaZero reimplementation's supervised network (`--preset paper`: 11 x 256)
#   deep-pink  Deep Pink's 3 x 2,048 network (`--preset paper`)
# on the decisive games of the carried PGN files, sampled by the paper's rule
# (ten positions a game, none from the first five moves or right after a capture).
#
# Here, once: scripts/gpu-prepare.sh (the binary, the TCEC games, the Vulkan
# loader) and, for a larger dataset than the carried games give, `data build`
# into .gpu/data (its .bin files gzipped); then put the archives the last
# call brought back, if any, in .gpu/runs/ (both folders ignored:
# .git/info/exclude). A later call must carry the same dataset.
# There, from the repository root:
#   bash scripts/gpu-train.sh [MINUTES]
# Brings back in $OUT: NAME.tar.gz for each run (config, metrics,
# checkpoint: carry them as .gpu/runs/ next time) and log.txt.
# DEVICE (default cuda) and PGN (default .gpu/*.pgn.zst) may be set; with
# DEVICE=flex it runs anywhere (tests/tests/gpu_train_script.rs runs it so).
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

# The runs the last call brought back (RUNS_FROM, by default .gpu/runs).
for archive in "${RUNS_FROM:-.gpu/runs}"/*.tar.gz; do
    [ -f "$archive" ] && tar -C "$WORK" -xzf "$archive" && say "resuming $(basename "$archive" .tar.gz)"
done

# The dataset: one built beforehand and carried (DATA, by default .gpu/data:
# `meta.json` with `train.bin` and `val.bin`, each possibly gzipped, since a
# call carries 64 MiB), else one built here from the carried games (the same
# files and options give the same dataset on every call).
DATA=${DATA:-.gpu/data}
PGN=${PGN:-$(ls .gpu/*.pgn.zst 2>/dev/null | tr '\n' ' ')}
if [ ! -f "$WORK/data/meta.json" ] && [ -f "$DATA/meta.json" ]; then
    mkdir -p "$WORK/data"
    for f in "$DATA"/*; do
        case $f in
        *.gz) gzip -dc "$f" >"$WORK/data/$(basename "$f" .gz)" ;;
        *) cp "$f" "$WORK/data/" ;;
        esac
    done
fi
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

# after NAME RUN ARGS...: trains RUN once the run NAME has finished.
after() {
    local first=$1
    shift
    if finished "$first"; then train "$@"; else say "$1: waits for $first to finish"; fi
}

# ARGS (optional) are added to every run's command line (a test's smaller epochs).
RUNS=${RUNS:-pos2vec siamese distill}
for name in $RUNS; do
    # shellcheck disable=SC2086
    case $name in
    pos2vec) train pos2vec pos2vec --preset paper ${ARGS:-} ;;
    siamese) after pos2vec siamese siamese --preset paper --init "$WORK/pos2vec" ${ARGS:-} ;;
    distill) after siamese distill distill --preset paper --teacher "$WORK/siamese" ${ARGS:-} ;;
    az) train az az --supervised --preset paper ${ARGS:-} ;;
    deep-pink) train deep-pink deep-pink --preset paper ${ARGS:-} ;;
    *) say "unknown run $name" ;;
    esac
done

# Each run directory as one archive (the full Siamese network with its
# optimizer is about 11 MB). A run too large for that (the AlphaZero network
# of 11 x 256 and Deep Pink's of 3 x 2,048 with their optimizers: 100 MB and
# more) brings back its figures and best network alone, in parts of 15 MiB
# (join them with cat); its checkpoint stays in $WORK, where the next call
# on the same machine, while it is held, resumes it.
for name in $RUNS; do
    [ -d "$WORK/$name" ] || continue
    tar -C "$WORK" -czf "$OUT/$name.tar.gz" "$name"
    if [ "$(stat -c %s "$OUT/$name.tar.gz")" -gt $((15 * 1024 * 1024)) ]; then
        rm "$OUT/$name.tar.gz"
        (cd "$WORK" && tar -czf "$OUT/$name-result.tar.gz" "$name"/config.json "$name"/metrics.* \
            "$name"/state.json $(cd "$WORK" && ls -d "$name"/best.* 2>/dev/null))
        say "$name: its checkpoint is too large to bring back; it stays in $WORK/$name"
        if [ "$(stat -c %s "$OUT/$name-result.tar.gz")" -gt $((15 * 1024 * 1024)) ]; then
            split -b 15m -d "$OUT/$name-result.tar.gz" "$OUT/$name-result.tar.gz.part" &&
                rm "$OUT/$name-result.tar.gz"
        fi
    fi
done
[ "$(ls "$OUT" | wc -l)" -le 8 ] || say "more than 8 files in $OUT: pick fewer RUNS"
ls -la "$OUT" | tee -a "$LOG"
