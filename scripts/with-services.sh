#!/usr/bin/env bash
# Run a command with PostgreSQL and Redis available.
#
# If DATABASE_URL / REDIS_URL are already set (CI points them at the machine's own
# servers), they are used as they are. Otherwise a throwaway PostgreSQL cluster and a
# throwaway Redis server are started on free loopback ports in a temporary directory
# (the Debian packages are installed first if missing) and stopped when the command ends.
set -euo pipefail

workdir=$(mktemp -d "${TMPDIR:-/tmp}/bob-services.XXXXXX")
chmod 755 "$workdir"
pg_bin=""
started_pg=0
started_redis=0

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

apt_install() {
  "$(dirname "$0")/apt-install.sh" "$@"
}

cleanup() {
  if [ "$started_redis" = 1 ]; then
    redis-cli -p "$redis_port" shutdown nosave >/dev/null 2>&1 || true
  fi
  if [ "$started_pg" = 1 ]; then
    run_pg "$pg_bin/pg_ctl" -D "$workdir/pg" -m immediate stop >/dev/null 2>&1 || true
  fi
  rm -rf "$workdir"
}
trap cleanup EXIT

run_pg() {
  # PostgreSQL refuses to run as root: use the postgres system user then.
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if [ -z "${DATABASE_URL:-}" ]; then
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$pg_bin" ]; then
    apt_install postgresql
    pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  pg_port=$(free_port)
  mkdir -p "$workdir/pg"
  [ "$(id -u)" = 0 ] && chown postgres "$workdir/pg"
  run_pg "$pg_bin/initdb" -D "$workdir/pg" -U postgres -A trust --no-sync >/dev/null
  run_pg "$pg_bin/pg_ctl" -D "$workdir/pg" -l "$workdir/pg/server.log" -w \
    -o "-p $pg_port -k $workdir/pg -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off" \
    start >/dev/null
  started_pg=1
  export DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/postgres"
  echo "with-services: throwaway PostgreSQL on 127.0.0.1:$pg_port" >&2
fi

if [ -z "${REDIS_URL:-}" ]; then
  command -v redis-server >/dev/null || apt_install redis-server
  redis_port=$(free_port)
  redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no \
    --dir "$workdir" --daemonize yes --logfile "$workdir/redis.log" >/dev/null
  for _ in $(seq 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  started_redis=1
  export REDIS_URL="redis://127.0.0.1:$redis_port/0"
  echo "with-services: throwaway Redis on 127.0.0.1:$redis_port" >&2
fi

"$@"
