#!/usr/bin/env bash
# Runs a command against a throw-away PostgreSQL: scripts/with-postgres.sh npx vitest run --project server
#
# Debian's PostgreSQL (installed with apt-get when missing) gets a fresh cluster in a temporary
# directory, on a free port of 127.0.0.1 with its socket in that directory, trust auth and no
# durability (fsync off: a test database is thrown away). The command sees
#   TEST_DATABASE_URL  postgres://postgres@127.0.0.1:<port>/postgres (the admin database)
# and the cluster is stopped and deleted when this script exits, also when the command fails or
# the script is interrupted.
set -euo pipefail

if [ "$#" = 0 ]; then
  echo "usage: $0 <command> [args...]" >&2
  exit 2
fi

log() { printf '[postgres] %s\n' "$*" >&2; }
if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi

pg_bin() {
  # The newest installed major version; no version is hard-coded.
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; fi
}

BIN=$(pg_bin)
if [ -z "$BIN" ]; then
  log "installing Debian's postgresql"
  $SUDO apt-get update -qq
  # policy-rc.d keeps the package's own cluster from starting where services can start; the
  # temporary cluster below is all the tests use.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
  BIN=$(pg_bin)
  if [ -z "$BIN" ]; then
    log "no initdb/pg_ctl under /usr/lib/postgresql/*/bin after installing postgresql"
    exit 1
  fi
fi

# initdb and postgres refuse to run as root: as root the cluster belongs to the postgres user.
if [ "$(id -u)" = 0 ]; then
  AS=(runuser -u postgres --)
  OWNER=postgres
else
  AS=()
  OWNER=$(id -un)
fi

# As root the directory must be reachable for the postgres user, which a private TMPDIR may not be.
if [ "$(id -u)" = 0 ]; then TMP_PARENT=/tmp; else TMP_PARENT=${TMPDIR:-/tmp}; fi
TMP=$(mktemp -d "$TMP_PARENT/cockpit-pg-XXXXXX")
PGDATA_DIR="$TMP/data"
PG_PID=""

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [ -f "$PGDATA_DIR/postmaster.pid" ]; then
    "${AS[@]}" "$BIN/pg_ctl" -D "$PGDATA_DIR" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
  fi
  # pg_ctl gave up or the pid file is gone: the server process itself, by its id.
  if [ -n "$PG_PID" ] && kill -0 "$PG_PID" 2>/dev/null; then kill -9 "$PG_PID" 2>/dev/null || true; fi
  rm -rf "$TMP"
  exit "$status"
}
CHILD=""
# Interrupted: the command goes first (by its id), then cleanup stops the cluster.
stop_child() {
  if [ -n "$CHILD" ] && kill -0 "$CHILD" 2>/dev/null; then
    kill -TERM "$CHILD" 2>/dev/null || true
    wait "$CHILD" 2>/dev/null || true
  fi
  exit "$1"
}
trap cleanup EXIT
trap 'stop_child 130' INT
trap 'stop_child 143' TERM

if [ "$(id -u)" = 0 ]; then chown "$OWNER" "$TMP"; fi
chmod 700 "$TMP"

"${AS[@]}" "$BIN/initdb" -D "$PGDATA_DIR" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$TMP/initdb.log" 2>&1 || {
  cat "$TMP/initdb.log" >&2
  exit 1
}
# Only local connections, and nothing kept for the next start.
cat >"$PGDATA_DIR/pg_hba.conf" <<'EOF'
local   all   all                 trust
host    all   all   127.0.0.1/32  trust
host    all   all   ::1/128       trust
EOF

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# A port found free can be taken before the server binds it (other test runs on the machine): retry.
started=""
for _ in 1 2 3 4 5; do
  PORT=$(free_port)
  if "${AS[@]}" "$BIN/pg_ctl" -D "$PGDATA_DIR" -l "$TMP/postgres.log" -w -t 60 start -o "-c port=$PORT \
      -c listen_addresses=127.0.0.1 -c unix_socket_directories=$TMP \
      -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c wal_level=minimal -c max_wal_senders=0 \
      -c max_connections=200 -c shared_buffers=128MB -c checkpoint_timeout=1h -c max_wal_size=2GB \
      -c log_min_messages=warning -c log_min_error_statement=panic" >/dev/null 2>&1; then
    started=1
    break
  fi
  sleep 0.5
done
if [ -z "$started" ]; then
  log "PostgreSQL did not start:"
  cat "$TMP/postgres.log" >&2 || true
  exit 1
fi
PG_PID=$(head -n 1 "$PGDATA_DIR/postmaster.pid")
log "$("$BIN/postgres" --version | sed 's/^postgres (PostgreSQL) //') on 127.0.0.1:$PORT, data in $PGDATA_DIR"

export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
export PGHOST="$TMP" PGPORT="$PORT" PGUSER=postgres PGDATABASE=postgres

# In the background so that a signal to this script is handled at once, not when the command ends.
"$@" <&0 &
CHILD=$!
status=0
wait "$CHILD" || status=$?
CHILD=""
exit "$status"
