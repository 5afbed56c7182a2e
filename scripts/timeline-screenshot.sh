#!/usr/bin/env bash
# Renders a project's timeline page (reel graph --html) and takes a screenshot of it with
# headless Chromium, for looking at the page's design. Not used by the tests or CI.
#   scripts/timeline-screenshot.sh PROJECT OUT.png [WIDTHxHEIGHT]
# Needs Chromium (Debian: apt-get install chromium) and a built reel: $REEL, else
# .build/release/reel, else .build/debug/reel. The page is kept beside OUT.png as OUT.html.
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 PROJECT OUT.png [WIDTHxHEIGHT]" >&2
    exit 64
fi
project=$1
png=$2
size=${3:-1600x1000}
root=$(cd "$(dirname "$0")/.." && pwd)
reel=${REEL:-}
if [ -z "$reel" ]; then
    for candidate in "$root/.build/release/reel" "$root/.build/debug/reel"; do
        if [ -x "$candidate" ]; then reel=$candidate; break; fi
    done
fi
if [ -z "$reel" ]; then
    echo "no reel binary: run swift build -c release first (or set REEL)" >&2
    exit 1
fi
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
    echo "Chromium is not installed (Debian: apt-get install chromium)" >&2
    exit 1
fi
html="${png%.png}.html"
"$reel" graph "$project" --html "$html"
absolute=$(cd "$(dirname "$html")" && pwd)/$(basename "$html")
"$chromium" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size="${size/x/,}" \
    --screenshot="$png" "file://$absolute" 2>/dev/null
echo "$png ($(du -k "$html" | cut -f1) KB page: $html)"
