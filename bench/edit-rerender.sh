#!/usr/bin/env bash
# Re-rendering after an edit: a 10-minute 1080p30 project (the promo's two sources cut into
# 20 s shots with crossfades, music, a title every 30 s), rendered clean into an empty cache,
# then one title's text changed (a 5 s window) and rendered again. Prints both wall times,
# the ratio, and what the second render reused.
#   bench/edit-rerender.sh     (needs ffmpeg, GNU time, swift)
#   REEL=/path/to/reel bench/edit-rerender.sh   (measures that build of reel)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$ROOT/bench/work/edit
mkdir -p "$WORK"
"$ROOT/scripts/make-promo-media.sh"
if [ -z "${REEL:-}" ]; then
  (cd "$ROOT" && swift build -c release --product reel >/dev/null)
  REEL=$ROOT/.build/release/reel
fi
export REEL_CACHE_DIR=$WORK/cache
rm -rf "$REEL_CACHE_DIR"

project() { # $1: the text of the title at 300 s
  {
    echo "reel: 1"
    echo "output: { size: [1920, 1080], fps: 30, video: { codec: h264, preset: veryfast, crf: 23 } }"
    echo "media: { a: $ROOT/Examples/promo/media/A.mp4, b: $ROOT/Examples/promo/media/B.mp4, music: $ROOT/Examples/promo/media/music.mp3 }"
    echo "video:"
    echo "  - clips:"
    for i in $(seq 0 59); do
      if [ "$i" -gt 0 ]; then echo "      - { transition: crossfade, duration: 1s }"; fi
      if [ $((i % 2)) -eq 0 ]; then echo "      - { media: a, from: 0s, duration: 11s, fit: cover }"; else echo "      - { media: b, from: 0s, duration: 11s, fit: cover }"; fi
    done
    echo "audio:"
    echo "  - clips:"
    echo "      - { media: music, loop: true, duration: 10min }"
    echo "overlays:"
    for t in $(seq 0 30 570); do
      text="Chapter $((t / 30 + 1))"
      if [ "$t" -eq 300 ]; then text=$1; fi
      echo "  - { text: \"$text\", at: ${t}s, duration: 5s, position: [\"50%\", \"85%\"], style: { font: DejaVu Sans, size: 72 } }"
    done
  } > "$WORK/project.yaml"
}

project "Chapter 11"
"$REEL" validate "$WORK/project.yaml"
/usr/bin/time -f "%e" -o "$WORK/clean.time" "$REEL" render "$WORK/project.yaml" -o "$WORK/out.mp4" --jobs 2 --progress none
project "Chapter eleven, edited"
/usr/bin/time -f "%e" -o "$WORK/edit.time" "$REEL" render "$WORK/project.yaml" -o "$WORK/out.mp4" --jobs 2 --progress auto 2> "$WORK/edit.log"
clean=$(cat "$WORK/clean.time"); edit=$(cat "$WORK/edit.time")
tail -n 1 "$WORK/edit.log"
awk -v c="$clean" -v e="$edit" 'BEGIN { printf "clean render %.1f s, after the edit %.1f s: %.1f %%\n", c, e, 100 * e / c }'
