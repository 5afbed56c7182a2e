#!/usr/bin/env bash
# Local test of deploy/kubernetes (no cluster, no container engine needed): the manifests
# against the Kubernetes JSON schemas (kubernetes-validate, strict) plus the API server's own
# Job rules, the image's package install and bin/ + share/reel/ layout, and the Jobs simulated with the real reel
# binary (contract_test.py). Run after the Swift build:
#   deploy/kubernetes/test.sh [--seed N] [--only schema,rules,layout,segments,batch] [--keep]
# REEL: the binary (default .build/debug/reel). Needs python3 (+ venv), ffmpeg and PyPI once:
# kubernetes-validate goes into .build/k8s-venv. `deploy/kubernetes/test.sh --prepare` only makes
# the venv (scripts/test does that while the build runs).
set -euo pipefail
caller_pwd=$PWD
cd "$(dirname "$0")/../.."
prepare_only=false
[ "${1:-}" = --prepare ] && prepare_only=true
if [ -n "${REEL:-}" ]; then
  case "$REEL" in /*) ;; *) REEL="$caller_pwd/$REEL" ;; esac
else
  REEL="$PWD/.build/debug/reel"
fi
if ! $prepare_only && [ ! -x "$REEL" ]; then
  echo "FAIL no reel binary at $REEL: build first (swift build) or set REEL"
  exit 1
fi
if ! $prepare_only && ! command -v ffmpeg >/dev/null 2>&1; then
  echo "FAIL the ffmpeg CLI is needed for the test media (scripts/ensure-deps.sh installs it)"
  exit 1
fi

VENV=.build/k8s-venv
KUBERNETES_VALIDATE=1.37.0
venv_ok() {
  "$VENV/bin/python" - "$KUBERNETES_VALIDATE" >/dev/null 2>&1 <<'PY'
import sys, yaml, kubernetes_validate
from importlib.metadata import version
sys.exit(0 if version("kubernetes-validate") == sys.argv[1] else 1)
PY
}
if ! venv_ok; then
  echo "==> making $VENV with kubernetes-validate==$KUBERNETES_VALIDATE (PyPI)"
  rm -rf "$VENV"
  if ! python3 -m venv "$VENV" >/dev/null 2>&1; then
    rm -rf "$VENV"
    # Debian's python3 has venv in its own package.
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq && apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
      python3 -m venv "$VENV"
    else
      echo "FAIL python3 -m venv does not work here: sudo apt-get install -y python3-venv"
      exit 1
    fi
  fi
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "kubernetes-validate==$KUBERNETES_VALIDATE"
  venv_ok || { echo "FAIL $VENV: kubernetes-validate $KUBERNETES_VALIDATE and PyYAML do not import"; exit 1; }
fi
$prepare_only && exit 0

exec "$VENV/bin/python" deploy/kubernetes/contract_test.py --reel "$REEL" "$@"
