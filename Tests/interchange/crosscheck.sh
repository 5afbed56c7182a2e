#!/usr/bin/env bash
# Cross-checks reel import/export with OpenTimelineIO (Python) on the shared fixtures; see crosscheck.py.
# Creates .build/otio-venv with pinned opentimelineio and its adapters on first use.
# Skips with a notice when ../shared/testdata is absent.
# Usage: Tests/interchange/crosscheck.sh [REEL_BINARY]; --prepare only makes the venv (scripts/test
# does that while the build runs).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
testdata="$root/../shared/testdata"
if [ ! -d "$testdata/otio" ] || [ ! -d "$testdata/cmx3600-edl" ]; then
  echo "notice: $testdata is absent: the OpenTimelineIO cross-check is skipped"
  exit 0
fi
prepare_only=false
[ "${1:-}" = --prepare ] && prepare_only=true
reel="${1:-$root/.build/debug/reel}"
venv="$root/.build/otio-venv"
if ! "$venv/bin/python" -c 'import opentimelineio, otio_cmx3600_adapter' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "opentimelineio==0.18.1" "opentimelineio-plugins==0.18.1"
fi
$prepare_only && exit 0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root/Tests/interchange"
"$venv/bin/python" crosscheck.py "$reel" "$testdata" "$work"
