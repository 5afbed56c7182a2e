#!/usr/bin/env bash
# Scale-out figures: what a unit of work costs besides its frames, and the throughput of
# 1 and 2 local workers running units as separate processes, as a distributed runner would
# (the segments of a 2-minute 1080p timeline: plan, units, join; a 40-row batch at --preset
# preview: shards). Prints the figures and a simple model of N machines:
# T(N) = serial (plan + join) + ceil(units / N) x the mean unit time.
#   bench/scale-out.sh      (needs ffmpeg, GNU time, swift; about 4 minutes on 2 cores)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$ROOT/bench/work/scale
rm -rf "$WORK"; mkdir -p "$WORK"
"$ROOT/scripts/make-promo-media.sh"
(cd "$ROOT" && swift build -c release --product reel >/dev/null)
REEL=$ROOT/.build/release/reel
MEDIA=$ROOT/Examples/promo/media
export REEL_CACHE_DIR=$WORK/cache
seconds() { /usr/bin/time -f "%e" -o "$WORK/t" "$@" >/dev/null; cat "$WORK/t"; }

# A 2-minute 1080p30 timeline: the promo's sources in 11 s shots with crossfades, music, titles.
{
  echo "reel: 1"
  echo "output: { size: [1920, 1080], fps: 30, video: { codec: h264, preset: veryfast, crf: 23 } }"
  echo "media: { a: $MEDIA/A.mp4, b: $MEDIA/B.mp4, music: $MEDIA/music.mp3 }"
  echo "video:"
  echo "  - clips:"
  for i in $(seq 0 11); do
    if [ "$i" -gt 0 ]; then echo "      - { transition: crossfade, duration: 1s }"; fi
    if [ $((i % 2)) -eq 0 ]; then echo "      - { media: a, from: 0s, duration: 11s, fit: cover }"; else echo "      - { media: b, from: 0s, duration: 11s, fit: cover }"; fi
  done
  echo "audio:"
  echo "  - clips:"
  echo "      - { media: music, loop: true, duration: 121s }"
  echo "overlays:"
  for t in 0 30 60 90; do
    echo "  - { text: \"Chapter $((t / 30 + 1))\", at: ${t}s, duration: 5s, position: [\"50%\", \"85%\"], style: { font: DejaVu Sans, size: 72 } }"
  done
} > "$WORK/timeline.yaml"

echo "== per-unit overhead"
start=$(seconds "$REEL" --version)
plan=$(seconds "$REEL" plan "$WORK/timeline.yaml" --json)
"$REEL" plan "$WORK/timeline.yaml" --json > "$WORK/plan.json"
units=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["segments"]))' "$WORK/plan.json")
echo "process start $start s; load, probe, compile and plan (reel plan) $plan s; $units segments"

# runs W: the segments as separate processes, W at a time; prints "plan units join total".
segments_with() {
  local w=$1 parts=$WORK/parts-$1
  rm -rf "$parts" "$REEL_CACHE_DIR"; mkdir -p "$parts"
  local t0 t1 t2 t3
  t0=$(date +%s.%N)
  "$REEL" plan "$WORK/timeline.yaml" --json > /dev/null
  t1=$(date +%s.%N)
  seq 0 $((units - 1)) | xargs -P "$w" -I{} "$REEL" render "$WORK/timeline.yaml" --segment {} --parts "$parts" --jobs 1 --progress none > /dev/null
  t2=$(date +%s.%N)
  "$REEL" join "$WORK/timeline.yaml" --parts "$parts" -o "$WORK/out-$w.mp4" > /dev/null
  t3=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN { printf "%.2f %.2f %.2f %.2f\n", b - a, c - b, d - c, d - a }'
}
echo "== 2-minute 1080p timeline, segments as processes (plan, units, join, total s)"
read -r p1 u1 j1 total1 < <(segments_with 1)
echo "1 worker:  plan $p1, units $u1, join $j1, total $total1"
read -r p2 u2 j2 total2 < <(segments_with 2)
echo "2 workers: plan $p2, units $u2, join $j2, total $total2"
cmp "$WORK/out-1.mp4" "$WORK/out-2.mp4" && echo "outputs identical"
whole=$(seconds "$REEL" render "$WORK/timeline.yaml" -o "$WORK/whole.mp4" --no-cache --progress none)
cmp "$WORK/out-1.mp4" "$WORK/whole.mp4" && echo "reel render --no-cache (one process, jobs 2): $whole s, same bytes"

echo "== 40-row batch at --preset preview (Examples/template's good rows, 8 times)"
python3 - "$ROOT/Examples/template/rows.csv" "$WORK/rows40.csv" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
good = [r for r in rows[1:] if "blurple" not in r]
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f); w.writerow(rows[0])
    for i in range(40):
        r = list(good[i % len(good)]); r[0] = f"row{i + 1}"; w.writerow(r)
EOF
cp "$WORK/rows40.csv" "$ROOT/Examples/template/rows40.tmp.csv"
trap 'rm -f "$ROOT/Examples/template/rows40.tmp.csv"' EXIT
batch_with() { # W shards at once, each one process rendering its rows one at a time
  local w=$1 out=$WORK/batch-$1
  rm -rf "$out"
  local t0 t1
  t0=$(date +%s.%N)
  for k in $(seq 0 $((w - 1))); do
    (cd "$ROOT/Examples/template" && "$REEL" batch project.yaml --data rows40.tmp.csv --output "$out/{{ id }}.mp4" \
       --preset preview --shard "$k/$w" > "$WORK/batch-$w-$k.log") &
  done
  wait
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }'
}
b1=$(batch_with 1)
b2=$(batch_with 2)
for f in "$WORK"/batch-1/*.mp4; do cmp "$f" "$WORK/batch-2/$(basename "$f")"; done && echo "outputs identical"
plan40=$(cd "$ROOT/Examples/template" && seconds "$REEL" batch project.yaml --data rows40.tmp.csv --output "x/{{ id }}.mp4" --plan)
echo "1 worker: $b1 s ($(awk -v t="$b1" 'BEGIN { printf "%.1f", 40 / t }') rows/s); 2 workers: $b2 s ($(awk -v t="$b2" 'BEGIN { printf "%.1f", 40 / t }') rows/s); planning all 40 rows: $plan40 s"

echo "== model: N machines, one worker each (units of the 2-minute timeline; rows of the batch)"
awk -v units="$units" -v u1="$u1" -v p="$p1" -v j="$j1" -v b1="$b1" -v plan40="$plan40" 'BEGIN {
  unit = u1 / units; row = (b1 - plan40) / 40
  printf "timeline: serial %.1f s (plan %.1f + join %.1f), mean unit %.2f s\n", p + j, p, j, unit
  printf "batch: mean row %.2f s, per-shard planning %.3f s a row\n", row, plan40 / 40
  printf "%6s %12s %10s %12s %10s\n", "N", "timeline s", "speed-up", "batch s", "speed-up"
  for (n = 1; n <= 64; n *= 2) {
    t = p + j + int((units + n - 1) / n) * unit
    rows = int((40 + n - 1) / n); bt = rows * row + plan40 / 40 * rows
    printf "%6d %12.1f %10.2f %12.1f %10.2f\n", n, t, (p + j + units * unit) / t, bt, (40 * row + plan40) / bt
  }
}'
