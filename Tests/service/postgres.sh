#!/usr/bin/env bash
# Starts a private PostgreSQL server on loopback for the render service's tests (Debian's
# postgresql, run as the postgres user), and prints the URL of an empty database on it.
# Usage: eval "$(Tests/service/postgres.sh start)"   → exports REEL_TEST_POSTGRES_URL
#        Tests/service/postgres.sh stop
# The cluster lives in .build/postgres-test (made anew at each start); port 55432, or
# REEL_TEST_POSTGRES_PORT (two checkouts testing on one machine).
set -euo pipefail
cd "$(dirname "$0")/../.."
folder="$PWD/.build/postgres-test"
port="${REEL_TEST_POSTGRES_PORT:-55432}"
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
as_postgres() { runuser -u postgres -- "$@"; }

case "${1:-}" in
  start)
    [ "$(id -u)" -eq 0 ] || { echo "Tests/service/postgres.sh: run as root (the server runs as the postgres user)" >&2; exit 69; }
    [ -x "$bin/initdb" ] || { echo "Tests/service/postgres.sh: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 69; }
    if [ -f "$folder/data/postmaster.pid" ]; then as_postgres "$bin/pg_ctl" -D "$folder/data" -m immediate stop >/dev/null 2>&1 || true; fi
    rm -rf "$folder" && mkdir -p "$folder" && chown postgres: "$folder"
    as_postgres "$bin/initdb" -D "$folder/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    as_postgres "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $folder -c fsync=off -c max_connections=200" start >/dev/null
    as_postgres "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres reel_test
    echo "export REEL_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:$port/reel_test"
    ;;
  stop)
    [ -f "$folder/data/postmaster.pid" ] && as_postgres "$bin/pg_ctl" -D "$folder/data" -m fast stop >/dev/null
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 64 ;;
esac
