#!/usr/bin/env bash
# Validation time and memory against the number of clips: generated projects on one track with
# one 2 s 160x120 clip as media, either cut after cut or with a 0.2 s crossfade between every
# two clips. Prints clips, wall and user seconds, peak resident MiB.
#   bench/many-clips.sh      (needs ffmpeg, GNU time, swift)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$ROOT/bench/work/many
mkdir -p "$WORK"
(cd "$ROOT" && swift build -c release --product reel >/dev/null)
REEL=$ROOT/.build/release/reel
ffmpeg -v error -nostdin -y -f lavfi -i testsrc2=s=160x120:r=25:d=2 -c:v libx264 "$WORK/a.mp4"

project() { # $1 kind (cuts|fades), $2 clips
  {
    echo "reel: 1"
    echo "output: { size: [320, 180], fps: 25 }"
    echo "media: { a: a.mp4 }"
    echo "video:"
    echo "  - clips:"
    for i in $(seq 1 "$2"); do
      if [ "$1" = fades ] && [ "$i" -gt 1 ]; then echo "      - { transition: crossfade, duration: 0.2s }"; fi
      echo "      - { media: a, from: 0s, to: 0.5s }"
    done
  } > "$WORK/$1-$2.yaml"
}

printf "%-6s %6s %8s %8s %9s\n" kind clips "wall s" "user s" "peak MiB"
for kind in cuts fades; do
  for n in 1000 2000 5000 8000 10000; do
    project "$kind" "$n"
    status=0
    /usr/bin/time -f "%e %U %M" -o "$WORK/time" "$REEL" validate "$WORK/$kind-$n.yaml" >/dev/null 2>&1 || status=$?
    read -r wall user kb < <(tail -n 1 "$WORK/time")
    printf "%-6s %6d %8s %8s %9d%s\n" "$kind" "$n" "$wall" "$user" $((kb / 1024)) "$([ $status -ne 0 ] && echo "  (refused, exit $status)")"
  done
done
