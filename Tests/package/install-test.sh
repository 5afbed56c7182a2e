#!/usr/bin/env bash
# Installs Reel's Debian package the way a user would, in a clean Debian 12 root
# (debootstrap --variant=minbase bookworm: no Swift, no -dev package, no build folder), with
# `apt-get install --no-install-recommends ./reel_*.deb` (so its Depends alone must be enough),
# then uses it there: `reel --version`, `reel validate` (the schema from /usr/share/reel/), a
# `reel render` of media made on this machine (checked here with ffprobe), the preview page and
# the service's OpenAPI document (the other files of /usr/share/reel/), the man page and the
# completions.
#   Tests/package/install-test.sh [DEB]    (default: the newest dist/reel_*.deb; scripts/package-deb makes it)
#   Tests/package/install-test.sh --prepare   only makes the clean root (scripts/test does that while the build runs)
# Needs root (debootstrap, chroot, mounts), the Debian mirror (REEL_DEBIAN_MIRROR, default
# deb.debian.org), and ffmpeg, ffprobe, curl and man on this machine. The clean root and the
# .debs apt downloads are kept in REEL_DEBIAN_ROOT_CACHE (default .build/debian-root): the first
# run makes the root (the whole test took 47 s on an idle machine, 2.5 min on a loaded one),
# later runs copy it (12 s idle, 70 s loaded). The last render and one of its frames
# are left there (last-render.mp4, last-frame.png) to look at.
set -euo pipefail
cd "$(dirname "$0")/../.."
prepare_only=false
if [ "${1:-}" = --prepare ]; then
  prepare_only=true
else
  deb="${1:-$(ls -t dist/reel_*_*.deb 2>/dev/null | head -1)}"
  [ -f "$deb" ] || { echo "FAIL no package: run scripts/package-deb first or name the .deb"; exit 1; }
  deb="$(realpath "$deb")"
fi
[ "$(id -u)" -eq 0 ] || { echo "FAIL needs root (debootstrap, chroot, mounts): sudo $0 $*"; exit 1; }
for tool in ffmpeg ffprobe curl man; do
  command -v "$tool" >/dev/null || { echo "FAIL $tool is needed on this machine"; exit 1; }
done
cache="$(realpath -m "${REEL_DEBIAN_ROOT_CACHE:-.build/debian-root}")"
mirror="${REEL_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
clean="$cache/bookworm-minbase"
started=$SECONDS
failures=0
check() {  # check WHAT COMMAND...: runs COMMAND, prints PASS or FAIL with WHAT
  local what="$1"; shift
  if "$@"; then echo "PASS $what"; else echo "FAIL $what"; failures=$((failures + 1)); fi
}

mkdir -p "$cache/archives/partial"
if [ ! -d "$clean" ]; then
  if ! command -v debootstrap >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null \
      || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null; }
  fi
  echo "==> making a clean Debian 12 root in $clean (debootstrap, once)"
  rm -rf "$clean.tmp"
  debootstrap --variant=minbase bookworm "$clean.tmp" "$mirror" > "$cache/debootstrap.log" 2>&1 \
    || { tail -20 "$cache/debootstrap.log"; echo "FAIL debootstrap (log: $cache/debootstrap.log)"; exit 1; }
  # Sources as on an installed Debian 12: the release, its updates and security.
  printf '%s\n' "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
    "deb http://deb.debian.org/debian-security bookworm-security main" > "$clean.tmp/etc/apt/sources.list"
  rm -f "$clean.tmp"/var/cache/apt/archives/*.deb
  mv "$clean.tmp" "$clean"
  echo "    made in $((SECONDS - started)) s"
fi
$prepare_only && exit 0

# A copy of the clean root for this run, its mounts undone on every way out.
root="$(mktemp -d "$cache/run.XXXXXX")"
mounts=()
cleanup() {
  local i
  [ -n "${serve_pid:-}" ] && kill "$serve_pid" 2>/dev/null
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" 2>/dev/null || true
  done
  # rm -rf must not reach through a mount (the archives are the cache's).
  for i in "${mounts[@]}"; do
    if mountpoint -q "$i"; then echo "warning: $i is still mounted; $root left in place" >&2; return; fi
  done
  rm -rf "$root"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
copy_started=$SECONDS
cp -a "$clean/." "$root/"
mount -t proc proc "$root/proc" && mounts+=("$root/proc")
mount --bind "$cache/archives" "$root/var/cache/apt/archives" && mounts+=("$root/var/cache/apt/archives")
cp /etc/resolv.conf "$root/etc/resolv.conf"
echo "    root copied in $((SECONDS - copy_started)) s"
in_root() { "${in_root[@]}" "$@"; }
in_root=(chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root LANG=C.UTF-8
         DEBIAN_FRONTEND=noninteractive)

echo "==> apt-get install ./$(basename "$deb") in the clean root"
install_started=$SECONDS
cp "$deb" "$root/tmp/"
in_root apt-get update -qq
in_root apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")" > "$cache/apt-install.log" 2>&1 \
  || { tail -30 "$cache/apt-install.log"; echo "FAIL apt-get install ./$(basename "$deb")"; exit 1; }
echo "    installed in $((SECONDS - install_started)) s"

version="$(dpkg-deb -f "$deb" Version)"
check "reel --version in the root prints the package's version $version" \
  test "$(in_root reel --version)" = "$version"
check "reel is /usr/bin/reel, every library it links found" \
  sh -c "test -x '$root/usr/bin/reel' && ! chroot '$root' ldd /usr/bin/reel | grep -q 'not found'"
dev_or_swift="$(in_root dpkg-query -W -f '${Package}\n' | grep -E -e '-dev$' -e 'swift' || true)"
check "no -dev or Swift package installed (${dev_or_swift:-none})" test -z "$dev_or_swift"

# The project: a clip made here (the package does not need the ffmpeg CLI), a colour clip, a title.
mkdir -p "$root/root/project"
ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi -i testsrc2=size=320x240:rate=25:duration=2 \
  -f lavfi -i sine=frequency=440:sample_rate=48000:duration=2 -c:v libx264 -pix_fmt yuv420p -c:a aac \
  -shortest "$root/root/project/clip.mp4"
cat > "$root/root/project/project.yaml" <<'EOF'
reel: 1
output: { size: [320, 240], fps: 25 }
media: { clip: clip.mp4 }
video: [{ clips: [{ media: clip }, { color: "#204080", duration: 1s }] }]
audio: [{ clips: [{ media: clip }] }]
overlays: [{ text: "Installed", style: { size: 32, color: white } }]
EOF
check "reel validate in the root (the schema from /usr/share/reel/)" \
  in_root reel validate /root/project/project.yaml
printf 'reel: 1\noutput: { size: [320, 240], fps: 25, speed: fast }\nvideo: []\n' > "$root/root/project/invalid.yaml"
invalid="$(in_root reel validate /root/project/invalid.yaml 2>&1 || true)"
check "reel validate rejects an unknown field by the schema: ${invalid%%$'\n'*}" \
  grep -q "invalid.yaml:2:.*speed" <<< "$invalid"
check "reel render in the root" \
  in_root reel render /root/project/project.yaml -o /root/project/out.mp4 --progress none
cp "$root/root/project/out.mp4" "$cache/last-render.mp4" 2>/dev/null || true
streams="$(ffprobe -v error -show_entries stream=codec_name,width,height -of csv=p=0 "$cache/last-render.mp4" 2>&1 | tr '\n' ' ' || true)"
duration="$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$cache/last-render.mp4" 2>&1 || true)"
check "the render: H.264 320x240 and AAC, 3 s (ffprobe: $streams$duration s)" \
  sh -c "test '$streams' = 'h264,320,240 aac ' && awk 'BEGIN { exit !($duration >= 2.95 && $duration <= 3.05) }'"
ffmpeg -hide_banner -loglevel error -nostdin -y -ss 1 -i "$cache/last-render.mp4" -frames:v 1 "$cache/last-frame.png" || true

# The preview page and the OpenAPI document come from /usr/share/reel/ too.
"${in_root[@]}" reel preview /root/project/project.yaml --port 18651 > "$cache/preview.log" 2>&1 &
serve_pid=$!
page=""
for _ in $(seq 50); do page="$(curl -fsS http://127.0.0.1:18651/ 2>/dev/null)" && break; sleep 0.2; done
kill "$serve_pid" 2>/dev/null; wait "$serve_pid" 2>/dev/null || true
check "reel preview serves its page (index.html)" grep -qi "<html" <<< "$page"
mkdir -p "$root/root/service"
"${in_root[@]}" reel serve --data /root/service --listen 127.0.0.1:18652 > "$cache/serve.log" 2>&1 &
serve_pid=$!
openapi=""
for _ in $(seq 50); do openapi="$(curl -fsS http://127.0.0.1:18652/v1/openapi.json 2>/dev/null)" && break; sleep 0.2; done
kill "$serve_pid" 2>/dev/null; wait "$serve_pid" 2>/dev/null || true
serve_pid=""
check "reel serve serves its OpenAPI document" grep -q '"openapi"' <<< "$openapi"

man_page="$root/usr/share/man/man1/reel.1.gz"
manual="$(MANWIDTH=100 man -l "$man_page" 2>/dev/null || true)"
subcommands="$(in_root reel --help | sed -n '/^SUBCOMMANDS:/,/^$/p' | awk '/^  [a-z]/ { print $1 }')"
missing="$(for c in $subcommands; do grep -Eq "^ +$c( |$)" <<< "$manual" || echo "$c"; done)"
has_line() { grep -q -- "$1" <<< "$2"; }
check "man page /usr/share/man/man1/reel.1.gz: the abstract and all $(wc -w <<< "$subcommands") subcommands${missing:+ (missing: $missing)}" \
  eval 'test -n "$subcommands" && test -z "$missing" && has_line "Render videos from declarative project files" "$manual"'
check "bash completion loads in the root's bash" \
  sh -c "chroot '$root' bash -c 'source /usr/share/bash-completion/completions/reel && complete -p reel' | grep -q reel"
check "zsh completion /usr/share/zsh/vendor-completions/_reel" grep -q "#compdef reel" "$root/usr/share/zsh/vendor-completions/_reel"
check "fish completion /usr/share/fish/vendor_completions.d/reel.fish" grep -q "^complete -c 'reel'" "$root/usr/share/fish/vendor_completions.d/reel.fish"

# Last, as it breaks the installation: without /usr/share/reel/reel.schema.json, validate says so.
rm "$root/usr/share/reel/reel.schema.json"
broken="$(in_root reel validate /root/project/project.yaml 2>&1 || true)"
check "without /usr/share/reel/reel.schema.json validate fails and says so: ${broken%%$'\n'*}" \
  grep -q "reel.schema.json is missing from Reel's resources" <<< "$broken"

echo "==> $((SECONDS - started)) s in all; $failures failed"
[ "$failures" -eq 0 ]
