#!/usr/bin/env bash
# Tests reel-ray on a real Ray cluster: two nodes (1 CPU each) started here on loopback as
# separate processes. Checks that a Ray render is byte-identical to a local one and ran on both
# nodes, that a killed Ray worker or reel process is retried, that a batch with a bad row renders
# the good rows and exits 65, that permanent errors are not retried and that --parts resumes.
#   integrations/ray/test.sh [--reel PATH]      (or REEL=PATH; default .build/debug/reel)
#   integrations/ray/test.sh --prepare          only makes the venv (scripts/test does that while the build runs)
# Needs ffmpeg and python3 (as root, python3-venv is installed when missing); pip installs Ray
# into .build/ray-venv (kept for the next run).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
RAY_VERSION=2.60.0
VENV=$ROOT/.build/ray-venv
REEL=${REEL:-$ROOT/.build/debug/reel}
PREPARE_ONLY=false
while [ $# -gt 0 ]; do
  case $1 in
    --reel) REEL=${2:?--reel needs a path}; shift 2 ;;
    --reel=*) REEL=${1#--reel=}; shift ;;
    --prepare) PREPARE_ONLY=true; shift ;;
    *) echo "usage: $0 [--reel PATH] | --prepare" >&2; exit 64 ;;
  esac
done
case $REEL in /*) ;; *) REEL=$PWD/$REEL ;; esac
if ! $PREPARE_ONLY && [ ! -x "$REEL" ]; then echo "FAIL: no reel executable at $REEL (swift build first, or --reel PATH)"; exit 1; fi
command -v ffmpeg >/dev/null || { echo "FAIL: ffmpeg is not on PATH"; exit 1; }

# --- Python, a venv with Ray and reel-ray ---------------------------------------------------
if ! python3 -c 'import ensurepip' 2>/dev/null; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "==> installing python3-venv"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-venv >/dev/null \
      || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-venv >/dev/null; }
  else
    echo "FAIL: python3 with venv is needed: sudo apt-get install -y python3-venv"; exit 1
  fi
fi
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
start=$(date +%s)
"$VENV/bin/pip" install --quiet --disable-pip-version-check "ray==$RAY_VERSION"
# From a copy: pip builds in the source folder, which should stay clean.
PACKAGE=$(mktemp -d)
cp -R "$HERE/pyproject.toml" "$HERE/README.md" "$HERE/reel_ray" "$PACKAGE/"
"$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps --force-reinstall "$PACKAGE"
rm -rf "$PACKAGE"
echo "==> pip install: $(( $(date +%s) - start ))s (ray $RAY_VERSION, $("$VENV/bin/python" --version))"
$PREPARE_ONLY && exit 0

# --- a two-node Ray cluster on loopback --------------------------------------------------------
# Ray turns 127.0.0.1 into the machine's network address; another loopback address it keeps.
NODE_IP=127.0.0.2
# Short: Ray's unix sockets live under it, and their paths may not exceed 107 bytes.
RAY_TMP=$(mktemp -d /tmp/reel-ray-test.XXXXXX)
WORK=$RAY_TMP/work
mkdir -p "$WORK"
export RAY_USAGE_STATS_ENABLED=0
NODE_GROUPS=()

# The processes of our cluster: the process groups `ray start` made (setsid) and everything they
# started (Ray workers make groups of their own), and whatever else runs with our TMPDIR.
cluster_pids() {
  {
    ps -eo pid=,ppid=,pgid= | awk -v groups=" ${NODE_GROUPS[*]-} " '
      { pid[NR] = $1; parent[NR] = $2; if (index(groups, " " $3 " ")) mine[$1] = 1 }
      END {
        do { grew = 0; for (i = 1; i <= NR; i++) if (!(pid[i] in mine) && (parent[i] in mine)) { mine[pid[i]] = 1; grew = 1 } } while (grew)
        for (p in mine) print p
      }'
    grep -lsxF "TMPDIR=$RAY_TMP" --null-data /proc/[0-9]*/environ | cut -d/ -f3
  } | sort -u | grep -vx "$$" || true
}

stop_cluster() {
  local pids tries=0
  pids=$(cluster_pids)
  [ -z "$pids" ] && return 0
  # shellcheck disable=SC2086
  kill -KILL $pids 2>/dev/null || true
  while [ -n "$(cluster_pids)" ] && [ $tries -lt 50 ]; do sleep 0.1; tries=$((tries + 1)); done
}

finish() {
  local status=$?
  stop_cluster
  if [ -n "$(cluster_pids)" ]; then echo "FAIL: processes left behind: $(cluster_pids | tr '\n' ' ')"; status=1; fi
  rm -rf "$RAY_TMP"
  exit $status
}
trap finish EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# ray start NAME ARGS: a node whose daemons stay in a process group of their own.
start_node() {
  local name=$1; shift
  TMPDIR=$RAY_TMP setsid "$VENV/bin/ray" start "$@" --node-ip-address=$NODE_IP --num-cpus=1 \
    --temp-dir="$RAY_TMP" --object-store-memory=100000000 --min-worker-port=0 --max-worker-port=0 \
    --disable-usage-stats </dev/null >"$RAY_TMP/$name.log" 2>&1 &
  local pid=$!
  NODE_GROUPS+=("$pid")
  if ! wait "$pid"; then echo "FAIL: ray start ($name) failed:"; cat "$RAY_TMP/$name.log"; exit 1; fi
}

HEAD_ADDRESS=$NODE_IP:$(free_port)
start=$(date +%s)
start_node head --head --port="${HEAD_ADDRESS##*:}" --include-dashboard=false
start_node worker --address="$HEAD_ADDRESS"
echo "==> two Ray nodes on $HEAD_ADDRESS in $(( $(date +%s) - start ))s"

# --- the tests ----------------------------------------------------------------------------------
set +e
TMPDIR=$WORK RAY_ADDRESS=$HEAD_ADDRESS "$VENV/bin/python" "$HERE/tests/cluster_test.py" \
  --reel "$REEL" --address "$HEAD_ADDRESS" --work "$WORK" --python "$VENV/bin/python"
status=$?
set -e
stop_cluster
exit $status
