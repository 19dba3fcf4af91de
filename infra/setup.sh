#!/usr/bin/env bash
# Brings this machine, fresh or not, to where pmx runs and its tests pass: pnpm and the
# dependencies, Postgres, Redis and HAProxy (installed with apt-get only when missing; the first
# two started on loopback), then the database migrations. Idempotent; needs no stdin. See README.md.
set -Eeuo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=10.34.9
PG_URL="${PMX_PG_URL:-postgres://pmx:pmx@127.0.0.1:5432/pmx}"
REDIS_URL="${PMX_REDIS_URL:-redis://127.0.0.1:6379}"
WAIT_SECONDS="${PMX_SETUP_WAIT_SECONDS:-60}"
export DEBIAN_FRONTEND=noninteractive

say() { echo "setup: $*"; }
die() { echo "setup: ERROR: $*" >&2; exit 1; }
trap 'echo "setup: ERROR: failed at infra/setup.sh line $LINENO: $BASH_COMMAND" >&2' ERR

# The password hidden: everything between //user: and the last @ (a password may hold / or @).
redact() { sed -E 's#//([^:@/]*):.*@#//\1:***@#' <<<"$1"; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo -n "$@"
  else die "root is needed for: $*"
  fi
}

# Runs as the postgres OS user from / (its home may not be able to read our cwd).
as_postgres() {
  if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@")
  else (cd / && sudo -n -u postgres "$@")
  fi
}

# C.UTF-8 always exists on Debian, so the cluster that postgresql's post-install step creates
# does not depend on which locales this machine happens to have generated.
apt_install() {
  local log=/tmp/pmx-setup-apt.log
  say "installing $* with apt-get (about a minute)"
  if ! { as_root apt-get update -q && as_root env LC_ALL=C.UTF-8 apt-get install -y -q --no-install-recommends "$@"; } >"$log" 2>&1 </dev/null; then
    tail -n 30 "$log" >&2
    die "apt-get could not install $* (full log: $log)"
  fi
}

# Prints scheme, host, port, user, password, database of a URL, one per line, then "." so
# that $(…) keeps the empty trailing fields.
url_parts() {
  node -e '
    const u = new URL(process.argv[1]);
    const d = (s) => decodeURIComponent(s);
    console.log([u.protocol.slice(0, -1), u.hostname.replace(/^\[(.*)\]$/, "$1"), u.port,
      d(u.username), d(u.password), d(u.pathname.replace(/^\//, "")), "."].join("\n"));
  ' "$1" 2>/dev/null
}

is_loopback() { case "$1" in 127.0.0.1|localhost|::1) return 0 ;; *) return 1 ;; esac; }

tcp_open() { timeout 3 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$1" "$2" 2>/dev/null; }

pg_answers() {
  if command -v pg_isready >/dev/null 2>&1; then pg_isready -q -h "$1" -p "$2" -t 2
  else tcp_open "$1" "$2"
  fi
}

# A Redis that answers PING (or asks for a password) counts as up.
redis_answers() {
  timeout 3 bash -c '
    exec 3<>"/dev/tcp/$0/$1" || exit 1
    printf "PING\r\n" >&3
    IFS= read -r -t 2 reply <&3 || exit 1
    case "$reply" in "+PONG"*|"-NOAUTH"*) exit 0 ;; *) exit 1 ;; esac
  ' "$1" "$2" 2>/dev/null
}

redis_wants_password() {
  timeout 3 bash -c '
    exec 3<>"/dev/tcp/$0/$1" || exit 1
    printf "PING\r\n" >&3
    IFS= read -r -t 2 reply <&3 || exit 1
    case "$reply" in "-NOAUTH"*) exit 0 ;; *) exit 1 ;; esac
  ' "$1" "$2" 2>/dev/null
}

wait_for() {
  local what=$1; shift
  local deadline=$((SECONDS + WAIT_SECONDS))
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || die "$what did not answer within ${WAIT_SECONDS}s"
    sleep 1
  done
  say "$what answers"
}

ensure_pnpm() {
  if ! command -v pnpm >/dev/null 2>&1; then
    say "installing pnpm@$PNPM_VERSION with npm"
    npm install -g --silent "pnpm@$PNPM_VERSION" </dev/null || die "npm could not install pnpm@$PNPM_VERSION"
    hash -r
  fi
  command -v pnpm >/dev/null 2>&1 || die "pnpm was installed but is not on PATH ($(npm prefix -g)/bin)"
  say "pnpm $(pnpm --version)"
}

install_dependencies() {
  # confirmModulesPurge=false: never stop to ask (there is no stdin) when node_modules must be rebuilt.
  if [ -f pnpm-lock.yaml ]; then
    say "pnpm install --frozen-lockfile"
    pnpm install --frozen-lockfile --config.confirmModulesPurge=false </dev/null ||
      die "pnpm install --frozen-lockfile failed (is pnpm-lock.yaml up to date? run pnpm install and commit it)"
  else
    say "pnpm install (no lockfile yet)"
    pnpm install --config.confirmModulesPurge=false </dev/null || die "pnpm install failed"
  fi
}

# --- Postgres -------------------------------------------------------------------------

# A postmaster.pid left by a machine that was stopped uncleanly can name a PID that some other
# process now has, which makes postgres refuse to start; drop it when no postgres owns it.
remove_stale_postgres_pid() {
  local pidfile="$1/postmaster.pid" pid
  [ -f "$pidfile" ] || return 0
  pid=$(head -n 1 "$pidfile")
  if [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = postgres ]; then return 0; fi
  say "postgres: removing stale $pidfile"
  as_root rm -f "$pidfile"
}

start_local_postgres() {
  local port=$1 cluster version name datadir logfile
  cluster=$(pg_lsclusters --no-header 2>/dev/null | awk -v p="$port" '$3 == p { print $1, $2; exit }')
  if [ -z "$cluster" ]; then
    version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
    name=main
    if pg_lsclusters --no-header 2>/dev/null | awk '{ print $1, $2 }' | grep -qx "$version main"; then name=pmx; fi
    say "postgres: creating cluster $version/$name on port $port"
    as_root pg_createcluster --locale=C.UTF-8 -p "$port" "$version" "$name" >/dev/null </dev/null
    cluster="$version $name"
  fi
  read -r version name <<<"$cluster"
  datadir=$(pg_lsclusters --no-header | awk -v v="$version" -v n="$name" '$1 == v && $2 == n { print $6 }')
  logfile=$(pg_lsclusters --no-header | awk -v v="$version" -v n="$name" '$1 == v && $2 == n { print $7 }')
  remove_stale_postgres_pid "$datadir"
  say "postgres: starting cluster $version/$name (pg_ctlcluster)"
  if ! as_root pg_ctlcluster "$version" "$name" start </dev/null; then
    # Running but not answering yet (crash recovery after a reboot, say): wait for it below.
    if pg_lsclusters --no-header | awk -v v="$version" -v n="$name" '$1 == v && $2 == n { print $4 }' | grep -q online; then
      say "postgres: cluster $version/$name is already running; waiting for it to answer"
      return 0
    fi
    [ -f "$logfile" ] && tail -n 20 "$logfile" >&2
    die "postgres cluster $version/$name did not start (log: $logfile)"
  fi
}

# The role can create the test databases and drop them while autovacuum works in them
# (DROP DATABASE … WITH (FORCE) ends those sessions only for members of pg_signal_backend).
pg_url_has_createdb() {
  [ "$(PGCONNECT_TIMEOUT=5 psql -X -w -q -tA "$PG_URL" \
    -c "SELECT rolcreatedb AND pg_has_role(current_user, 'pg_signal_backend', 'MEMBER') FROM pg_roles WHERE rolname = current_user" 2>/dev/null)" = t ]
}

# Creates (or repairs) the URL's role, with CREATEDB and pg_signal_backend for the test
# databases, and its database.
provision_local_postgres() {
  local port=$1 user=$2 password=$3 database=$4
  if pg_url_has_createdb; then
    say "postgres: role $user can log in to $database"
    return 0
  fi
  say "postgres: creating role $user (CREATEDB, pg_signal_backend) and database $database"
  as_postgres psql -X -w -q -v ON_ERROR_STOP=1 -h /var/run/postgresql -p "$port" -d postgres \
    -v role="$user" -v pw="$password" -v db="$database" >/dev/null <<'SQL' ||
SELECT format('CREATE ROLE %I LOGIN CREATEDB PASSWORD %L', :'role', :'pw') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'role') \gexec
SELECT format('ALTER ROLE %I LOGIN CREATEDB PASSWORD %L', :'role', :'pw') \gexec
SELECT format('GRANT pg_signal_backend TO %I', :'role') \gexec
SELECT format('CREATE DATABASE %I OWNER %I', :'db', :'role') WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'db') \gexec
SQL
    die "could not create role $user / database $database as the postgres OS user; create them yourself or point PMX_PG_URL elsewhere"
  pg_url_has_createdb || die "still cannot log in with $(redact "$PG_URL") after creating the role"
}

ensure_postgres() {
  local parts scheme host port user password database
  parts=$(url_parts "$PG_URL") || die "PMX_PG_URL is not a valid URL: $(redact "$PG_URL")"
  { IFS= read -r scheme; IFS= read -r host; IFS= read -r port; IFS= read -r user; IFS= read -r password; IFS= read -r database; } <<<"$parts"
  case "$scheme" in postgres|postgresql) ;; *) die "PMX_PG_URL must be postgres://…, got $(redact "$PG_URL")" ;; esac
  port=${port:-5432}
  if ! is_loopback "$host" || [ "$port" != 5432 ]; then
    say "postgres: using $(redact "$PG_URL") as given (not managed here)"
    wait_for "postgres at $host:$port" pg_answers "$host" "$port"
    return 0
  fi
  if pg_answers 127.0.0.1 "$port"; then
    say "postgres: already running on 127.0.0.1:$port"
  else
    if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then apt_install postgresql; fi
    # apt's post-install step may have started it already.
    pg_answers 127.0.0.1 "$port" || start_local_postgres "$port"
  fi
  wait_for "postgres on 127.0.0.1:$port" pg_answers 127.0.0.1 "$port"
  provision_local_postgres "$port" "${user:-pmx}" "$password" "${database:-pmx}"
}

# --- Redis ----------------------------------------------------------------------------

start_local_redis() {
  local port=$1 dir owner
  # As root, run it as Debian's redis user in the package's own directories; otherwise in ./data.
  if [ "$(id -u)" = 0 ] && id redis >/dev/null 2>&1; then
    dir=/var/lib/redis owner=redis
    install -d -o redis -g redis -m 750 /var/lib/redis /var/log/redis
    say "redis: starting redis-server on 127.0.0.1:$port (appendonly, dir $dir)"
    (cd / && runuser -u redis -- redis-server --daemonize yes --bind 127.0.0.1 --port "$port" \
      --appendonly yes --dir "$dir" --logfile /var/log/redis/redis-server.log \
      --pidfile /var/lib/redis/redis-server.pid) </dev/null >/dev/null
  else
    dir="$PWD/data/redis" owner=$(id -un)
    mkdir -p "$dir"
    say "redis: starting redis-server on 127.0.0.1:$port (appendonly, dir $dir)"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --appendonly yes --dir "$dir" \
      --logfile "$dir/redis-server.log" --pidfile "$dir/redis-server.pid" </dev/null >/dev/null
  fi || die "redis-server did not start as $owner (see its log in $dir or /var/log/redis)"
}

# A Redis we did not start (e.g. Debian's default config) may have AOF off; queues need it.
ensure_append_only() {
  local port=$1 mode
  command -v redis-cli >/dev/null 2>&1 || return 0
  mode=$(redis-cli -h 127.0.0.1 -p "$port" CONFIG GET appendonly 2>/dev/null | sed -n 2p) || true
  if [ "$mode" = no ]; then
    if redis-cli -h 127.0.0.1 -p "$port" CONFIG SET appendonly yes >/dev/null 2>&1; then
      say "redis: turned on appendonly"
      # Keep it across restarts where Redis runs from a config file (Debian's service does).
      redis-cli -h 127.0.0.1 -p "$port" CONFIG REWRITE >/dev/null 2>&1 ||
        say "redis: WARNING: could not write appendonly to its config file; set 'appendonly yes' there"
    else
      say "redis: WARNING: could not turn on appendonly"
    fi
  fi
}

ensure_redis() {
  local parts scheme host port
  parts=$(url_parts "$REDIS_URL") || die "PMX_REDIS_URL is not a valid URL: $(redact "$REDIS_URL")"
  { IFS= read -r scheme; IFS= read -r host; IFS= read -r port; } <<<"$parts"
  case "$scheme" in redis|rediss) ;; *) die "PMX_REDIS_URL must be redis://…, got $(redact "$REDIS_URL")" ;; esac
  port=${port:-6379}
  if [ "$scheme" = rediss ] || ! is_loopback "$host" || [ "$port" != 6379 ]; then
    say "redis: using $(redact "$REDIS_URL") as given (not managed here)"
    if [ "$scheme" = rediss ]; then wait_for "redis at $host:$port" tcp_open "$host" "$port"
    else wait_for "redis at $host:$port" redis_answers "$host" "$port"
    fi
    return 0
  fi
  if redis_answers 127.0.0.1 "$port"; then
    say "redis: already running on 127.0.0.1:$port"
  else
    command -v redis-server >/dev/null 2>&1 || apt_install redis-server
    redis_answers 127.0.0.1 "$port" || start_local_redis "$port"
  fi
  wait_for "redis on 127.0.0.1:$port" redis_answers 127.0.0.1 "$port"
  if [[ "$REDIS_URL" != *@* ]] && redis_wants_password 127.0.0.1 "$port"; then
    die "redis on 127.0.0.1:$port asks for a password: put it in PMX_REDIS_URL (redis://:password@127.0.0.1:$port)"
  fi
  ensure_append_only "$port"
}

# --- HAProxy (the edge) ---------------------------------------------------------------

# The edge in front of every public service (services/edge runs it; infra/start.sh starts it).
# Debian's package starts no frontend of its own: its default config only logs.
# iproute2's `ip`: the cluster test puts each process in a network namespace of its own.
ensure_iproute2() {
  if command -v ip >/dev/null 2>&1 || [ -x /usr/sbin/ip ] || [ -x /sbin/ip ]; then
    say "iproute2: present"
    return
  fi
  apt_install iproute2
  say "iproute2: installed"
}

ensure_haproxy() {
  if command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]; then
    say "haproxy: $( (command -v haproxy || echo /usr/sbin/haproxy) | head -n 1) ($("$( (command -v haproxy || echo /usr/sbin/haproxy) | head -n 1)" -v | head -n 1 | cut -d' ' -f3))"
    return 0
  fi
  apt_install haproxy
  [ -x /usr/sbin/haproxy ] || die "haproxy was installed but /usr/sbin/haproxy is missing"
  say "haproxy: installed $(/usr/sbin/haproxy -v | head -n 1 | cut -d' ' -f3)"
}

# --- main -----------------------------------------------------------------------------

command -v node >/dev/null 2>&1 || die "node is not installed (pmx needs Node 20.19+ or 22.12+)"
# vite, under vitest, needs ^20.19 || >=22.12; say so here rather than fail in the test command.
node -e '
  const [major, minor] = process.versions.node.split(".").map(Number);
  process.exit((major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major > 22 ? 0 : 1);
' || die "node $(node --version) is too old or unsupported: pmx needs Node 20.19+ or 22.12+"
ensure_pnpm
install_dependencies
ensure_postgres
ensure_redis
ensure_haproxy
ensure_iproute2
say "migrating $(redact "$PG_URL")"
PMX_PG_URL="$PG_URL" pnpm exec tsx packages/db/src/migrate-cli.ts </dev/null || die "database migration failed"
say "done"
