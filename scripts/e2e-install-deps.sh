#!/usr/bin/env bash
# scripts/install-deps while another apt holds apt's locks (as unattended-upgrades does on a
# fresh machine): it says it is waiting, waits, then installs. As root: removes one package the
# test set installs (PACKAGE, default hyperfine: only scripts/bench uses it), holds the dpkg
# frontend and lists locks with fcntl (as apt does) for HOLD seconds, runs install-deps --test.
# Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/e2e.sh
package=${PACKAGE:-hyperfine}
hold=${HOLD:-15}
[ "$(id -u)" = 0 ] || { echo "scripts/e2e-install-deps.sh: run as root" >&2; exit 77; }
e2e_init
DEBIAN_FRONTEND=noninteractive apt-get remove -y -q "$package" > /dev/null
python3 - "$hold" > "$work/holder" <<'PY' &
import fcntl, sys, time
files = [open(p, "a") for p in ("/var/lib/dpkg/lock-frontend", "/var/lib/apt/lists/lock")]
for f in files:
    fcntl.lockf(f, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(float(sys.argv[1]))  # the hold under test: apt's locks held this long, then released
PY
holder=$!
on_exit 'kill "$holder"'
wait_for -t 30 grep -q held "$work/holder"
start=$(date +%s)
scripts/install-deps --test > "$work/out" 2>&1
status=$?
took=$(( $(date +%s) - start ))
cat "$work/out"
check "install-deps: exit 0 once the other apt is done" test "$status" = 0
check "install-deps: says it waits, and for whom" \
  grep -q "Waiting for another package manager to finish: python3 (pid $holder) holds /var/lib/" "$work/out"
check "install-deps: waited for the lock (${took}s, held ${hold}s)" test "$took" -ge $((hold - 2))
check "install-deps: says when it goes on" grep -q "The other package manager is done" "$work/out"
check "install-deps: then installed $package" bash -c "dpkg-query -W -f='\${Status}' $package | grep -q 'install ok installed'"
check "install-deps: apt never failed on the lock" bash -c "! grep -q 'Could not get lock' '$work/out'"
e2e_done
