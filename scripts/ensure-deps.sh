# Sourced by scripts/demo and scripts/test: makes sure the machine has what Reel needs.
# As root it installs missing Debian packages itself; otherwise it prints the exact
# apt-get line and stops.
REEL_APT_PACKAGES=(
  pkg-config ffmpeg
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev
  libcairo2-dev libpango1.0-dev librsvg2-dev libfontconfig-dev
  fonts-dejavu-core fonts-noto-cjk webp-pixbuf-loader libjpeg-turbo-progs
  python3-venv
  libcurl4  # remote media downloads, opened at run time (Sources/CCurl)
  libsqlite3-dev  # the render service's job store (reel serve, through CSQLite)
  libpq-dev  # reel serve --database postgres://… (several nodes on one queue)
  libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri  # GLSL transitions: Mesa's llvmpipe through EGL (Sources/CShaderGL)
)
# Only for the tests: the preview page is tested in a real browser, renders are compared
# with those of emulated CPUs (qemu-x86_64 -cpu Nehalem / Haswell), and reel serve's nodes
# share a real PostgreSQL server (Tests/service/postgres.sh); /usr/bin/time measures the CPU
# time and memory of each reel on hostile media (HostileMediaTests).
REEL_TEST_APT_PACKAGES=(chromium qemu-user postgresql time)

# reel_ensure_deps [MORE_PACKAGES...]: Reel's packages and any more named.
reel_ensure_deps() {
  if ! command -v swift >/dev/null 2>&1; then
    echo "error: the Swift toolchain (6.0 or newer) is not on PATH." >&2
    echo "       Install it from https://www.swift.org/install/linux/ and run this again." >&2
    exit 69
  fi
  local missing=()
  for p in "${REEL_APT_PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ]; then
    echo "==> installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "Reel needs these Debian packages; install them and run this again:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 69
  fi
}

# Python's jsonschema cross-checks the Swift validator's verdicts in the tests.
reel_ensure_python_jsonschema() {
  command -v python3 >/dev/null 2>&1 || return 0
  python3 -c 'import jsonschema, yaml' 2>/dev/null && return 0
  echo "==> installing Python jsonschema and PyYAML with pip (for the schema cross-check)"
  python3 -m pip install --quiet jsonschema pyyaml 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages jsonschema pyyaml \
    || echo "warning: could not install jsonschema; the Python cross-check will be skipped" >&2
}
