#!/usr/bin/env bash
# The Debian package as a person gets it: built from this tree (scripts/package), checked by
# lintian (no error, no warning) and appstreamcli validate --pedantic, installed with apt-get,
# the real-user-manager suite (scripts/e2e-session.sh) run against /usr/bin/nudge, then removed
# and purged: nothing of the package is left and the person's database is intact.
# It leaves the machine as it found it: where a nudge package is already installed (or its
# configuration files are left), it never replaces, removes or purges it: the install and
# remove checks are skipped, each with a SKIP line saying why.
# Needs root (apt-get). Prints "N passed, N failed"; exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/e2e.sh
e2e_init
export DEBIAN_FRONTEND=noninteractive
# the nudge package this machine had before the test, if any ("install ok installed 0.1.0")
before=$(dpkg-query -W -f='${Status} ${Version}' nudge 2> /dev/null || true)
case $before in ""|"unknown ok not-installed"*|"purge ok not-installed"*) before= ;; esac

deb=$(scripts/package)
version=$(dpkg-deb -f "$deb" Version)
check "package: named nudge_VERSION_ARCH.deb with nudge --version's version" \
  test "$(basename "$deb")" = "nudge_${version}_$(dpkg --print-architecture).deb"
lintian --fail-on error,warning "$deb" > "$work/lintian" 2>&1 \
  && ok=0 || ok=$?
cat "$work/lintian"
check "lintian: no error and no warning" test "$ok" = 0
dpkg-deb -x "$deb" "$work/tree"
check "appstreamcli validate --pedantic: the metainfo is valid" \
  appstreamcli validate --pedantic --no-net \
  "$work/tree/usr/share/metainfo/io.github.nudge_habits.nudge.metainfo.xml"
check "metainfo: a console application that provides the binary nudge" \
  bash -c "grep -q '<component type=\"console-application\">' '$work/tree/usr/share/metainfo/'*.xml && grep -q '<binary>nudge</binary>' '$work/tree/usr/share/metainfo/'*.xml"
check "Depends: glibc 2.36 at least, whose loader reads the packed relocations (GLIBC_ABI_DT_RELR)" \
  bash -c "dpkg-deb -f '$deb' Depends | grep -q 'libc6 (>= 2.36)'"
check "Depends: what the binary loads (libc6, libsqlite3-0); the desktop libraries recommended" \
  bash -c "dpkg-deb -f '$deb' Depends | grep -q libsqlite3-0 && dpkg-deb -f '$deb' Depends | grep -q libc6 && dpkg-deb -f '$deb' Recommends | grep -q libnotify4"

install_checks=(
  "apt-get install ./nudge_*.deb"
  "installed: /usr/bin/nudge runs and says its version"
  "installed: the man page and the completions are where Debian looks"
  "installed: the units pass systemd-analyze verify"
  "packaged install, no user manager: exit 69, never 'Enabled'"
  "packaged install, no user manager: schedule says the reminders will not fire"
  "user-manager suite against /usr/bin/nudge (timers fire, a click opens the flow)"
  "apt-get remove: no file of the package is left"
  "apt-get remove: the person's database is intact"
  "apt-get purge: the package is gone, the data stays"
)
if [ -n "$before" ]; then
  reason="this machine has its own nudge package ($before), which this test would replace and purge; it is left as it is (apt remove nudge, or run the test where none is installed)"
  echo "SKIP the package installed, put through the user-manager suite, removed and purged: $reason"
  for name in "${install_checks[@]}"; do skip "$name" "a nudge package was installed before the test"; done
  e2e_done
  exit
fi
# never leave the package behind, whatever failed (it was not installed before)
on_exit 'dpkg -s nudge > /dev/null 2>&1 && apt-get purge -y -q nudge > /dev/null 2>&1'
apt-get install -y -q "$deb" > "$work/apt-install" 2>&1 || cat "$work/apt-install"
check "apt-get install ./nudge_*.deb" bash -c "dpkg -s nudge > /dev/null"
check "installed: /usr/bin/nudge runs and says its version" \
  test "$(/usr/bin/nudge --version)" = "nudge $version"
check "installed: the man page and the completions are where Debian looks" \
  bash -c "man -w nudge | grep -q /usr/share/man/man1/nudge.1.gz && test -s /usr/share/bash-completion/completions/nudge && test -s /usr/share/zsh/vendor-completions/_nudge && test -s /usr/share/fish/vendor_completions.d/nudge.fish"
check "installed: the units pass systemd-analyze verify" \
  bash -c "XDG_RUNTIME_DIR=\$(mktemp -d) systemd-analyze verify --user --man=no /usr/lib/systemd/user/nudge-morning.timer /usr/lib/systemd/user/nudge-notify@.service /usr/lib/systemd/user/nudge-tray.service"

# a person's data, made with the packaged binary
mkdir -m 700 "$work/data"
export NUDGE_DB=$work/data/nudge.sqlite3
for d in 18 19 20; do
  NUDGE_NOW=2026-11-${d}T21:30:00+01:00 /usr/bin/nudge prep --item water=yes --no-input > /dev/null
done
unset NUDGE_DB

# nudge install where no systemd user manager runs (a container, an SSH session): it writes the
# drop-ins, never says it enabled anything, and says why nothing will fire (issue 33)
mkdir -p "$work/nomanager"
env -u XDG_RUNTIME_DIR -u DBUS_SESSION_BUS_ADDRESS HOME="$work/nomanager" \
  XDG_CONFIG_HOME="$work/nomanager/config" XDG_DATA_HOME="$work/nomanager/data" \
  /usr/bin/nudge install > "$work/nomanager/out" 2> "$work/nomanager/err" && ok=0 || ok=$?
cat "$work/nomanager/out" "$work/nomanager/err"
check "packaged install, no user manager: exit 69, never 'Enabled'" \
  bash -c "test '$ok' = 69 && ! grep -qi enabled '$work/nomanager/out' && grep -q 'Wrote your reminder times' '$work/nomanager/out' && grep -q 'no timer was enabled or started' '$work/nomanager/err'"
check "packaged install, no user manager: schedule says the reminders will not fire" \
  bash -c "env -u XDG_RUNTIME_DIR HOME='$work/nomanager' XDG_CONFIG_HOME='$work/nomanager/config' XDG_DATA_HOME='$work/nomanager/data' /usr/bin/nudge schedule | grep -q 'Reminders will not fire here'"

# the reminder's whole life under a real systemd user manager, run by the packaged binary
NUDGE_BIN=/usr/bin/nudge scripts/e2e-session.sh > "$work/session" 2>&1 && ok=0 || ok=$?
grep -E "^(FAIL|[0-9]+ passed)" "$work/session" || true
check "user-manager suite against /usr/bin/nudge (timers fire, a click opens the flow)" test "$ok" = 0

dpkg -L nudge > "$work/files"
apt-get remove -y -q nudge > /dev/null
check "apt-get remove: no file of the package is left" \
  bash -c "while read -r f; do [ -d \"\$f\" ] || [ ! -e \"\$f\" ] || { echo \"left: \$f\"; exit 1; }; done < '$work/files'"
check "apt-get remove: the person's database is intact" \
  bash -c "test \"\$(sqlite3 '$work/data/nudge.sqlite3' 'PRAGMA integrity_check')\" = ok && test \"\$(sqlite3 '$work/data/nudge.sqlite3' 'SELECT count(*) FROM flow_entry WHERE flow = '\''prep'\''')\" = 3"
apt-get purge -y -q nudge > /dev/null 2>&1 || true
check "apt-get purge: the package is gone, the data stays" \
  bash -c "! dpkg -s nudge > /dev/null 2>&1 && test -s '$work/data/nudge.sqlite3' && test \"\$(sqlite3 '$work/data/nudge.sqlite3' 'SELECT count(*) FROM flow_entry WHERE flow = '\''prep'\''')\" = 3"

e2e_done
