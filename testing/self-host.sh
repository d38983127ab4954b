#!/usr/bin/env bash
# Follows docs/deploying.md, "A Debian 12 server, from scratch", as written: its ```bash blocks, in order, read from
# that page, run by root in a throwaway copy of this machine (Debian 12 with PostgreSQL 15 and nginx installed, as
# .ci/run leaves it). Then it checks what the page promises: the storefront answers through nginx over https, and the
# first admin signs in to the back office. Minutes, most of them a second `npm run build` (10 to 19 minutes on a busy
# 2-core machine): run from .ci/run, after `npm test`, not inside it.
#
#   bash testing/self-host.sh          # as root; the committed HEAD of this checkout is what gets deployed
#
# The copy of the machine: a mount namespace where /etc and /var are overlays whose writes are thrown away at the end
# (the system user, /etc/shop, the unit, nginx's site, PostgreSQL's data), /srv and /run fresh and empty, a network of
# its own (loopback only: ports 80, 443, 3000 and 5432 as on the server, whatever this machine runs), and a PID
# namespace whose processes all end with it. It has no Internet, so a few commands are stood in for, each below:
# apt-get (the packages are installed already), git's GitHub URL (this checkout instead), `npm ci` (a copy of this
# checkout's node_modules, which `npm ci` made), certbot (a self-signed certificate where Let's Encrypt's would be),
# sudoedit (fills the env file in), systemctl (runs shop.service's ExecStart the way systemd would, and nginx), sudo
# (runuser with a reset environment, which is sudo's default), and the doctor is skipped (it would call the payment
# service and the SMTP relay, which a sandbox has not).
set -euo pipefail

DOC=docs/deploying.md
SECTION="### A Debian 12 server, from scratch"
DOMAIN=shop.example.ly
ADMIN_EMAIL=you@shop.example.ly
ADMIN_PASSWORD=self-host-admin-password-1

if [ "${1:-}" != --inside ]; then
  cd "$(dirname "$0")/.."
  [ "$(id -u)" = 0 ] || { echo "testing/self-host.sh runs as root (it creates a user and starts services)." >&2; exit 1; }
  work=$(mktemp -d /tmp/self-host-XXXXXX)
  chmod 755 "$work"
  trap 'rm -rf "$work"' EXIT
  # The section's ```bash blocks, in order, unindented (the page's list indents them by three spaces).
  awk -v section="$SECTION" '
    $0 == section { inside = 1; next }
    inside && /^##/ { exit }
    inside && /^ *```bash$/ { code = 1; next }
    inside && /^ *```$/ { code = 0; next }
    code { sub(/^   /, ""); print }
  ' "$DOC" > "$work/steps.sh"
  [ -s "$work/steps.sh" ] || { echo "$DOC has no \"$SECTION\" with bash blocks" >&2; exit 1; }
  git clone -q --bare . "$work/source.git"
  start=$(date +%s)
  unshare --mount --net --pid --fork --mount-proc bash "$0" --inside "$work" "$PWD"
  echo "self-host: the section's steps and the checks passed in $(($(date +%s) - start)) s."
  exit 0
fi

work=$2
checkout=$3

# --- The throwaway machine -------------------------------------------------------------------------------------------
mount --make-rprivate /
for dir in etc var; do
  mkdir -p "$work/$dir-upper" "$work/$dir-work"
  mount -t overlay overlay -o "lowerdir=/$dir,upperdir=$work/$dir-upper,workdir=$work/$dir-work" "/$dir"
done
mount -t tmpfs tmpfs /srv
mount -t tmpfs tmpfs /run
mkdir -p /run/postgresql /run/nginx && chown postgres:postgres /run/postgresql
ip link set lo up
echo "127.0.0.1 $DOMAIN" >> /etc/hosts
# The clone's owner (root) is not the user who clones it.
git config --system --add safe.directory '*'
# What the packages' installation leaves running on a fresh machine: a new PostgreSQL cluster (none of this machine's),
# and nginx with its default site.
for dir in /etc/postgresql /var/lib/postgresql; do mount -t tmpfs tmpfs "$dir" && chown postgres:postgres "$dir"; done
pg_createcluster --start "$(ls /usr/lib/postgresql | sort -V | tail -n 1)" main > /dev/null
nginx

# --- Stand-ins for what needs the Internet or systemd -----------------------------------------------------------------
apt-get() { echo "(apt-get $*: installed on this machine already)"; }
sudo() {
  local user=root
  if [ "$1" = -u ]; then user=$2; shift 2; fi
  if [ "$*" = "npm ci" ]; then
    echo "(npm ci: a copy of the node_modules npm ci made in $checkout)"
    cp -a "$checkout/node_modules" . && chown -R "$user:" node_modules
    return
  fi
  if [ "$user" = root ]; then "$@"; return; fi
  runuser -u "$user" -- env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$(getent passwd "$user" | cut -d: -f6)" \
    LANG=C.UTF-8 NEXT_TELEMETRY_DISABLED=1 "$@"
}
certbot() {
  local domain
  domain=$(printf '%s\n' "$@" | grep -A1 -x -- -d | tail -n 1)
  echo "(certbot $*: a self-signed certificate for $domain)"
  mkdir -p "/etc/letsencrypt/live/$domain"
  openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=$domain" -addext "subjectAltName=DNS:$domain" \
    -keyout "/etc/letsencrypt/live/$domain/privkey.pem" -out "/etc/letsencrypt/live/$domain/fullchain.pem" 2>/dev/null
  export CURL_CA_BUNDLE="/etc/letsencrypt/live/$domain/fullchain.pem"
}
sudoedit() {
  echo "(sudoedit $1: filled in for this machine)"
  fill() { sed -i "s|^$1=.*|$1=$2|" "$file"; }
  local file=$1
  fill DATABASE_URL "postgresql://shop:a%20long%20random%20password@localhost:5432/shop"
  fill SITE_URL "https://$DOMAIN"
  for name in PAYMENT_CLIENT_ID PAYMENT_CLIENT_SECRET PAYMENT_WEBHOOK_SECRET SESSION_SECRET ORDER_LINK_SECRET \
    CRON_SECRET; do
    fill "$name" "$(openssl rand -hex 32)"
  done
  fill SMTP_URL "smtp://shop:$(openssl rand -hex 8)@localhost:2525"
  if grep -n replace-me "$file"; then echo "sudoedit: placeholders left in $file" >&2; return 1; fi
}
# systemd's way with shop.service: Environment= lines, then EnvironmentFile= over them, in WorkingDirectory, as User.
start_unit() {
  local unit=/etc/systemd/system/$1.service
  local value
  value() { sed -n "s/^$1=//p" "$unit"; }
  (
    cd "$(value WorkingDirectory)"
    exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      HOME="$(getent passwd "$(value User)" | cut -d: -f6)" USER="$(value User)" LOGNAME="$(value User)" \
      $(value Environment) bash -c 'set -a && . "$1" && set +a && shift && exec "$@"' _ \
      "$(value EnvironmentFile)" setpriv --reuid "$(value User)" --regid "$(value Group)" --init-groups \
      $(value ExecStart) > "$work/$1.log" 2>&1
  ) &
  echo $! > "/run/$1.pid"
}
systemctl() {
  echo "(systemctl $*)"
  case "$*" in
    daemon-reload) ;;
    "enable --now shop") start_unit shop ;;
    "restart shop") kill "$(cat /run/shop.pid)" && start_unit shop ;;
    "reload nginx") nginx -s reload ;;
    *) echo "systemctl $*: not stood in for" >&2; return 1 ;;
  esac
}

# --- The page's steps --------------------------------------------------------------------------------------------------
# Its commands as written, but for: this checkout in place of GitHub's URL, the admin's password from standard input
# instead of a prompt, and no doctor (see above).
sed -e "s|https://github.com/YOUR-ORG/YOUR-REPO.git|file://$work/source.git|" \
  -e "s|npm run admin -- create $ADMIN_EMAIL'|npm run admin -- create $ADMIN_EMAIL --password-stdin' <<< '$ADMIN_PASSWORD'|" \
  -e "/npm run doctor/s/^/: skipped: /" \
  "$work/steps.sh" > "$work/run.sh"
echo "--- $DOC, \"$SECTION\", each line as it runs:"
set -E
trap 'echo "--- shop.service'"'"'s log:"; cat "$work/shop.log" 2> /dev/null' ERR
set -v
# shellcheck source=/dev/null
. "$work/run.sh"
set +v

# --- What the page promises --------------------------------------------------------------------------------------------
for _ in $(seq 1 60); do curl -fsS -o /dev/null "https://$DOMAIN/" && break; sleep 1; done
cd "$checkout"
NODE_EXTRA_CA_CERTS=$CURL_CA_BUNDLE node --import tsx testing/self-host-check.ts "https://$DOMAIN" "$ADMIN_EMAIL" \
  "$ADMIN_PASSWORD"
