#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on loopback, for tests and benchmarks.
#
#   scripts/pg-throwaway.sh             start one; the last line of stdout is its postgres:// URL,
#                                       the line before it is PG_THROWAWAY_DIR=<dir>
#   scripts/pg-throwaway.sh stop <dir>  stop it and delete <dir>
#
# Options (environment): PG_THROWAWAY_PORT first port to try (default 55432),
# PG_BIN a PostgreSQL bin directory (default: the highest /usr/lib/postgresql/*/bin).
#
# Runs as root or as the postgres user: postgres refuses to run as root, so as root the
# server runs as `postgres` via runuser. Trust auth on loopback only: never expose it.
set -euo pipefail

MARKER=.pg-throwaway
die() { echo "pg-throwaway: $*" >&2; exit 1; }
log() { echo "pg-throwaway: $*" >&2; }

find_bin() {
  if [[ -n "${PG_BIN:-}" ]]; then
    [[ -x "$PG_BIN/initdb" ]] || die "PG_BIN=$PG_BIN has no initdb"
    echo "$PG_BIN"
    return
  fi
  local best='' v
  for d in /usr/lib/postgresql/*/bin; do
    [[ -x "$d/initdb" && -x "$d/pg_ctl" ]] || continue
    v=$(basename "$(dirname "$d")")
    if [[ -z "$best" ]] || (( ${v%%.*} > $(basename "$(dirname "$best")" | cut -d. -f1) )); then best=$d; fi
  done
  [[ -n "$best" ]] || die "no PostgreSQL server found (/usr/lib/postgresql/*/bin/initdb); install it: apt-get install postgresql"
  echo "$best"
}

# Runs a command as the postgres user (or directly if we already are not root).
as_pg() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

port_in_use() {
  # Bash's /dev/tcp connect succeeds only if something listens there.
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

start() {
  local bin dir port attempt
  bin=$(find_bin)
  if [[ $(id -u) -eq 0 ]]; then
    id postgres >/dev/null 2>&1 || die "user 'postgres' does not exist (is the postgresql package fully installed?)"
  fi

  dir=$(mktemp -d /tmp/pg-throwaway.XXXXXX)
  touch "$dir/$MARKER"
  [[ $(id -u) -eq 0 ]] && chown -R postgres: "$dir"
  chmod 700 "$dir"
  # If anything below fails, leave nothing behind.
  CLEANUP_DIR=$dir
  trap 'if [[ -n "${CLEANUP_DIR:-}" ]]; then stop_dir "$CLEANUP_DIR" >/dev/null 2>&1 || true; fi' EXIT

  # Run from the cluster dir: the postgres user may not be able to read the caller's cwd.
  cd "$dir"
  # --no-sync: a throwaway cluster's initial files need not reach the disk (saves ~0.5 s).
  if ! as_pg "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C \
      --no-sync --no-instructions >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    die "initdb failed (log above)"
  fi
  cat >>"$dir/data/postgresql.conf" <<EOF

# pg-throwaway
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
max_connections = 200
EOF

  port=${PG_THROWAWAY_PORT:-55432}
  for attempt in $(seq 1 50); do
    if port_in_use "$port"; then
      port=$((port + 1))
      continue
    fi
    if as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -o "-p $port" -w -t 30 start >/dev/null 2>&1; then
      echo "$port" >"$dir/port"
      log "started PostgreSQL $(basename "$(dirname "$bin")") on 127.0.0.1:$port (dir $dir)"
      CLEANUP_DIR=''
      echo "PG_THROWAWAY_DIR=$dir"
      echo "postgres://postgres@127.0.0.1:$port/postgres"
      return 0
    fi
    # Lost a race for the port (or a real failure: the log says which); try the next one.
    if ! grep -qi "could not bind\|address already in use" "$dir/server.log" 2>/dev/null; then
      cat "$dir/server.log" >&2 || true
      die "PostgreSQL did not start (server log above)"
    fi
    : >"$dir/server.log"
    port=$((port + 1))
  done
  die "no free port found from ${PG_THROWAWAY_PORT:-55432} (tried 50)"
}

stop_dir() {
  local dir=$1 bin
  if [[ ! -e "$dir" ]]; then
    log "$dir does not exist: nothing to stop"
    return 0
  fi
  # Refuse to delete a directory this script did not create.
  [[ -f "$dir/$MARKER" ]] || die "$dir is not a pg-throwaway cluster (no $MARKER): refusing to touch it"
  if [[ -f "$dir/data/postmaster.pid" ]]; then
    bin=$(find_bin)
    (cd "$dir" && as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 30 stop >/dev/null 2>&1) ||
      log "pg_ctl stop failed (server already gone?)"
  fi
  rm -rf -- "$dir"
  log "stopped and removed $dir"
}

case "${1:-start}" in
  start) start ;;
  stop)
    [[ $# -eq 2 ]] || die "usage: $0 stop <dir>"
    stop_dir "$2"
    ;;
  -h | --help) sed -n '2,12p' "$0" ;;
  *) die "usage: $0 [start] | stop <dir>" ;;
esac
