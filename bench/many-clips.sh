#!/usr/bin/env bash
# Big projects: time and peak memory against the number of clips, with PyYAML as the yardstick.
# Each project is one track of 0.5 s clips of one 2 s 160x120 video, a 0.2 s crossfade every
# 10 clips and one text overlay, written as YAML and as JSON (the same document). For each size:
#   PyYAML   yaml.load(f, Loader=yaml.CSafeLoader) of the YAML, json.load of the JSON (seconds
#            inside Python, the parse alone)
#   reel validate of the YAML and of the JSON, reel graph --json, reel plan, and
#   reel render --range 10s..20s (10 s of the timeline) of the YAML
#   preview  bench/preview-save.py: a save that changes the overlay's text → the new still
# Wall seconds are the best of RUNS runs (3 by default); MiB is the peak resident size
# (/usr/bin/time) of that run.
#   bench/many-clips.sh [CLIPS...]     (1000 10000 100000 by default; needs ffmpeg, GNU time,
#                                       python3 with PyYAML built with libyaml, swift)
#   REEL=/path/to/reel bench/many-clips.sh   (measures that build of reel)
#   PREVIEW_MAX=10000 (the largest project the preview is timed on; 0: none)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$ROOT/bench/work/many
RUNS=${RUNS:-3}
PREVIEW_MAX=${PREVIEW_MAX:-10000}
SIZES=("${@:-1000 10000 100000}")
read -r -a SIZES <<< "${SIZES[*]}"
mkdir -p "$WORK"
[ -x /usr/bin/time ] || { echo "bench needs GNU time: apt-get install time" >&2; exit 1; }
python3 -c 'import yaml; yaml.CSafeLoader' 2>/dev/null || { echo "bench needs PyYAML with libyaml (python3-yaml)" >&2; exit 1; }
if [ -z "${REEL:-}" ]; then
  (cd "$ROOT" && swift build -c release --product reel >/dev/null)
  REEL=$ROOT/.build/release/reel
fi
ffmpeg -v error -nostdin -y -f lavfi -i testsrc2=s=160x120:r=25:d=2 -c:v libx264 "$WORK/a.mp4"

project() { # $1 clips: writes clips-N.yaml and clips-N.json
  python3 - "$1" "$WORK/clips-$1" <<'PY'
import json, sys
n, out = int(sys.argv[1]), sys.argv[2]
overlay = {"text": "Title", "at": "1s", "duration": "4s", "style": {"size": 24, "color": "#ffffff"}}
clips, lines = [], ["reel: 1", "output: { size: [320, 180], fps: 25 }", "media: { a: a.mp4 }", "overlays:",
                    '  - { text: Title, at: 1s, duration: 4s, style: { size: 24, color: "#ffffff" } }', "video:", "  - clips:"]
for i in range(1, n + 1):
    if i > 1 and i % 10 == 1:
        clips.append({"transition": "crossfade", "duration": "0.2s"})
        lines.append("      - { transition: crossfade, duration: 0.2s }")
    clips.append({"media": "a", "from": "0s", "to": "0.5s"})
    lines.append("      - { media: a, from: 0s, to: 0.5s }")
open(out + ".yaml", "w").write("\n".join(lines) + "\n")
head = {"reel": 1, "output": {"size": [320, 180], "fps": 25}, "media": {"a": "a.mp4"}, "overlays": [overlay]}
with open(out + ".json", "w") as f:
    f.write("{\n" + "".join(f"  {json.dumps(k)}: {json.dumps(v)},\n" for k, v in head.items())
            + '  "video": [{"clips": [\n' + ",\n".join("    " + json.dumps(c) for c in clips) + "\n  ]}]\n}\n")
PY
}

# Best wall seconds of RUNS runs of a command, and the peak MiB of that run: "S MiB".
best() {
  local best_wall="" best_kb=0 wall kb
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" >/dev/null 2>"$WORK/stderr" \
      || { echo "failed: $* ($(tail -n 3 "$WORK/stderr"))" >&2; echo "failed -"; return; }
    read -r wall kb < <(tail -n 1 "$WORK/time")
    if [ -z "$best_wall" ] || awk "BEGIN { exit !($wall < $best_wall) }"; then best_wall=$wall; best_kb=$kb; fi
  done
  echo "$best_wall $((best_kb / 1024))"
}

# Best seconds Python takes to parse a file (yaml.CSafeLoader, or json.load for .json).
python_parse() {
  for _ in $(seq "$RUNS"); do
    python3 -c '
import json, sys, time, yaml
start = time.perf_counter()
with open(sys.argv[1]) as f:
    json.load(f) if sys.argv[1].endswith(".json") else yaml.load(f, Loader=yaml.CSafeLoader)
print(f"{time.perf_counter() - start:.3f}")' "$1"
  done | sort -n | head -n 1
}

printf "%7s %6s | %8s %8s | %15s %15s %15s %15s %15s | %8s\n" clips "MB" "PyYAML" json.load \
  "validate YAML" "validate JSON" "graph --json" plan "render 10 s" "preview"
printf "%7s %6s | %8s %8s | %15s %15s %15s %15s %15s | %8s\n" "" "" "s" "s" "s MiB" "s MiB" "s MiB" "s MiB" "s MiB" "s"
for n in "${SIZES[@]}"; do
  project "$n"
  yaml=$WORK/clips-$n.yaml json=$WORK/clips-$n.json
  mb=$(awk "BEGIN { printf \"%.2f\", $(stat -c %s "$yaml") / 1e6 }")
  pyyaml=$(python_parse "$yaml") pyjson=$(python_parse "$json")
  validate_yaml=$(best "$REEL" validate "$yaml")
  validate_json=$(best "$REEL" validate "$json")
  graph=$(best "$REEL" graph --json "$yaml")
  plan=$(best "$REEL" plan "$yaml")
  render=$(best "$REEL" render "$yaml" --range 10s..20s -o "$WORK/range.mp4" --no-cache)
  preview=-
  if [ "$n" -le "$PREVIEW_MAX" ]; then
    preview=$(python3 "$ROOT/bench/preview-save.py" "$REEL" "$yaml" "$RUNS" | sed -n 's/.*best \([0-9.]*\) s.*/\1/p')
  fi
  printf "%7d %6s | %8s %8s | %15s %15s %15s %15s %15s | %8s\n" "$n" "$mb" "$pyyaml" "$pyjson" \
    "$validate_yaml" "$validate_json" "$graph" "$plan" "$render" "$preview"
done
