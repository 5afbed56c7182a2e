#!/usr/bin/env bash
# Fuzzes `reel serve`'s API from its own OpenAPI document with schemathesis (PyPI): no 5xx,
# every status, content type, header and body as the document says. A real service on loopback
# (a fresh data folder, one lavfi clip in its media root, a token), the debug build by default.
# Usage: Tests/service/schemathesis.sh [path/to/reel]; --prepare only makes the venv (scripts/test
# does that while the build runs).
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.build/schemathesis-venv
[ -x "$venv/bin/schemathesis" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q "schemathesis==4.32.5"; }
[ "${1:-}" = --prepare ] && exit 0
reel="$(realpath "${1:-.build/debug/reel}")"
work="$(mktemp -d)"
trap 'kill $(cat "$work/pid" 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/media"
ffmpeg -loglevel error -f lavfi -i testsrc2=size=160x90:rate=25:duration=1 "$work/media/clip.mp4"
token="$("$reel" serve token create fuzz --data "$work/data" | tail -1)"
"$reel" serve --data "$work/data" --listen 127.0.0.1:0 --media-root "$work/media" > "$work/out" 2> "$work/err" &
echo $! > "$work/pid"
for _ in $(seq 100); do grep -q "Serving the render API at" "$work/out" && break; sleep 0.1; done
url="$(grep -o 'http://[^ ]*' "$work/out")"
[ -n "$url" ] || { cat "$work/err"; echo "reel serve did not start" >&2; exit 1; }
"$venv/bin/schemathesis" run "$url/v1/openapi.json" -H "Authorization: Bearer $token" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance \
  --max-examples 50 --seed 20261127
