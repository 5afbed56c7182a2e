#!/usr/bin/env bash
# Checks Reel's GLSL transitions against moderngl (PyPI) on Mesa's llvmpipe: test-only shaders
# rendered by both agree at PSNR >= 45 dB, and wrong variants fall below; see moderngl_check.py.
# Creates .build/moderngl-venv with pinned moderngl and numpy on first use.
# Usage: Tests/shader/moderngl_check.sh [path/to/reel]; --prepare only makes the venv (scripts/test
# does that while the build runs).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/.build/moderngl-venv"
if ! "$venv/bin/python" -c 'import moderngl, numpy, glcontext' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "moderngl==5.13.0" "numpy==2.4.6" "glcontext==3.1.0"
fi
[ "${1:-}" = --prepare ] && exit 0
reel="$(realpath "${1:-$root/.build/debug/reel}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$venv/bin/python" "$root/Tests/shader/moderngl_check.py" "$reel" "$work"
