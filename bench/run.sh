#!/usr/bin/env bash
# Reel vs the ffmpeg CLI on the promo job (Examples/promo: 20 s, 1920x1080, crossfade, title,
# watermark, music with fades) and the floor (encoding Reel's final frames and samples alone with
# the same encoder settings), over RUNS runs in which the three take turns. Prints wall and CPU
# seconds and peak memory (medians) and Reel's ratios to ffmpeg and to the floor.
# Reel renders without its cache, JOBS segments at once (2 by default).
# Each job starts after PAUSE seconds of idle (3 by default), and Reel and the floor swap
# places every run: on the 2-core development VM, back to back, the job that follows another
# one is slowed by it, and by how much depends on the one before (the floor took 7.3–8.4 s
# right after the ffmpeg CLI, 9.7–11.1 s right after Reel), so a fixed order with the floor
# always after the ffmpeg CLI favoured the floor. With the pause, 3 runs each way gave
# Reel / floor 0.96–1.10 with Reel second and 0.90–0.97 with Reel first; swapping evens out
# what is left.
#   bench/run.sh            (RUNS=3, JOBS=2, PAUSE=3 by default; needs ffmpeg, GNU time, swift)
#   REEL=/path/to/reel bench/run.sh   (measures that build of reel)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-3}
WORK=$ROOT/bench/work
MEDIA=$ROOT/Examples/promo/media
mkdir -p "$WORK"
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench needs GNU time: apt-get install time" >&2; exit 1; }

# The same generator as ../shared/bench/make-sources.sh (byte-identical media).
"$ROOT/scripts/make-promo-media.sh"
# REEL=path/to/reel measures that binary instead of building the release one.
if [ -z "${REEL:-}" ]; then
  (cd "$ROOT" && swift build -c release --product reel >/dev/null)
  REEL=$ROOT/.build/release/reel
fi

# measure NAME COMMAND...: appends "wall user+sys maxKB" to $WORK/NAME.times
measure() {
  local name=$1; shift
  sleep "${PAUSE:-3}"
  "$TIME" -f "%e %U %S %M" -o "$WORK/$name.last" "$@" >/dev/null
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$WORK/$name.last" >> "$WORK/$name.times"
}

rm -f "$WORK"/*.times
# The floor: Reel's final frames (rendered losslessly: x264 crf 0, FLAC) and samples, encoded alone
# with Reel's encoder settings (x264 veryfast crf 23 without mbtree + AAC 128k).
sed -e 's/crf: 23/crf: 0/' -e 's/codec: aac, bitrate: 128k/codec: flac/' -e "s#media/#$MEDIA/#" \
  "$ROOT/Examples/promo/project.yaml" > "$WORK/lossless.yaml"
grep -q 'crf: 0' "$WORK/lossless.yaml" && grep -q 'codec: flac' "$WORK/lossless.yaml" \
  || { echo "bench: could not make the promo lossless (its output settings changed?)" >&2; exit 1; }
"$REEL" render "$WORK/lossless.yaml" -o "$WORK/final.mkv" --no-cache --progress none
ffmpeg -v error -y -i "$WORK/final.mkv" -f rawvideo -pix_fmt yuv420p "$WORK/final.yuv" -f f32le -ar 48000 -ac 2 "$WORK/final.pcm"
rm -f "$WORK/final.mkv"
trap 'rm -f "$WORK/final.yuv" "$WORK/final.pcm"' EXIT
reel() {
  measure reel "$REEL" render "$ROOT/Examples/promo/project.yaml" -o "$WORK/out-reel.mp4" --no-cache --jobs "${JOBS:-2}" --progress none
}
floor() {
  measure floor ffmpeg -v error -nostdin -y -f rawvideo -pix_fmt yuv420p -s 1920x1080 -r 30 -i "$WORK/final.yuv" \
    -f f32le -ar 48000 -ac 2 -i "$WORK/final.pcm" -c:v libx264 -preset veryfast -crf 23 -x264-params mbtree=0 -c:a aac -b:a 128k \
    -movflags +faststart "$WORK/out-floor.mp4"
}
# The three jobs take turns, so a change in the machine's load touches them alike.
for i in $(seq "$RUNS"); do
  echo "run $i/$RUNS" >&2
  if (( i % 2 )); then reel; floor; else floor; reel; fi
  measure ffmpeg env WORK="$MEDIA" OUT="$WORK/out-ffmpeg.mp4" "$ROOT/bench/ffmpeg-peer.sh"
done

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
column() { awk -v c="$2" '{ print $c }' "$WORK/$1.times" | median; }
printf "%-8s %10s %10s %12s\n" job "wall s" "CPU s" "peak MiB"
for job in reel ffmpeg floor; do
  printf "%-8s %10s %10s %12d\n" "$job" "$(column $job 1)" "$(column $job 2)" "$(( $(column $job 3) / 1024 ))"
done
awk -v r="$(column reel 1)" -v f="$(column ffmpeg 1)" -v rc="$(column reel 2)" -v fc="$(column ffmpeg 2)" \
  'BEGIN { printf "reel / ffmpeg: wall %.2f, CPU %.2f (median of %d alternating runs)\n", r / f, rc / fc, '"$RUNS"' }'
# Per run, Reel's wall time over the floor's right after it: the ratio least touched by load.
paste -d' ' "$WORK/reel.times" "$WORK/floor.times" | awk '{ print $1 / $4 }' | median \
  | awk '{ printf "reel / floor: wall %.2f (median of the per-run ratios)\n", $1 }'
