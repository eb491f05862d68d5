#!/usr/bin/env bash
# The panel's status line in a real status bar program: i3blocks (which writes the i3bar
# protocol to its stdout, no window needed) runs `nudge status --format i3blocks --follow` as a
# persistent block; its text changes when a habit is ticked in a terminal, when a flow is saved,
# and when another computer's change arrives through the sync folder. Idle, the follower makes
# no wake-ups (its context switches over a few seconds, read from /proc). Prints the update
# latency as a figure. Prints "N passed, N failed"; exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/e2e.sh
NUDGE=${NUDGE_BIN:-$PWD/.build/debug/nudge}
e2e_init --sweep
export HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" TZ=Europe/Berlin
mkdir -p "$HOME"
command -v i3blocks > /dev/null || { echo "i3blocks is missing: run scripts/install-deps --test"; exit 1; }
# a fixed now that advances with the clock: the morning, far from 18:00 and the rollover
export NUDGE_NOW=2026-11-20T09:00:00+01:00
on_fail() { echo "--- bar:"; tail -c 2000 "$work/bar.out"; }

"$NUDGE" habit add Stretch > /dev/null
mkdir -m 700 "$work/folder"
"$NUDGE" sync init "$work/folder" --name desk > /dev/null
cat > "$work/i3blocks.conf" <<CONF
[nudge]
command=$NUDGE status --format i3blocks --follow
interval=persist
format=json
CONF
i3blocks -c "$work/i3blocks.conf" > "$work/bar.out" 2> "$work/bar.err" &
on_exit "kill $! 2> /dev/null || true"
# the bar's latest full_text (the i3bar protocol: a header, then an array of arrays)
bar_text() { grep -o '"full_text":"[^"]*"' "$work/bar.out" | tail -1; }
bar_shows() { bar_text | grep -qF "$1"; }

check "i3blocks shows the line: the review due, one habit left" \
  wait_for -t 10 bar_shows "Morning Focus · 1 habit left"
check "the line is coloured by its state (due)" grep -q '"color":"#E5C07B"' "$work/bar.out"

follower=$(pgrep -f "status --format i3blocks --follow" | head -1)
switches() { cat /proc/"$follower"/task/*/status | awk '/ctxt_switches/ {n += $2} END {print n}'; }
before=$(switches)
sleep 3  # a fixed wait on purpose: the idle follower's wake-ups are counted over it
after=$(switches)
echo "     idle: $((after - before)) context switches in 3 s"
check "idle, the follower does not wake (0 context switches in 3 s)" test "$((after - before))" = 0

start=$(date +%s%N)
"$NUDGE" habit done stretch > /dev/null
check "a habit ticked in a terminal: the bar says so" wait_for -t 5 bar_shows "🔥 0 · Morning Focus\""
echo "     latency from the done's exit to the bar's new text: $((($(date +%s%N) - start) / 1000000)) ms (with the wait's 0.1 s steps)"

"$NUDGE" review --commit-to walk --no-input --no-animation > /dev/null
check "a flow saved: all done, in green" wait_for -t 5 bar_shows "🔥 1 · all done"
check "the done state's colour" wait_for -t 5 grep -q '"color":"#98C379"' "$work/bar.out"

# another computer, through the same folder: a habit of its own arrives
export XDG_DATA_HOME="$work/laptop"
"$NUDGE" sync init "$work/folder" --name laptop > /dev/null
"$NUDGE" habit add Floss > /dev/null
"$NUDGE" sync now > /dev/null
export XDG_DATA_HOME="$work/data"
check "another computer's habit arrives through the folder: one habit left again" \
  wait_for -t 10 bar_shows "1 habit left"
check "and the desk's database took it in" bash -c "'$NUDGE' habit list --json | grep -q Floss"
# what a take-in writes (its own files in the folder) must not wake it again and again
before=$(switches)
sleep 2  # a fixed wait on purpose: the follower's wake-ups after a take-in are counted over it
after=$(switches)
echo "     after the take-in: $((after - before)) context switches in 2 s"
check "after another computer's change, the follower is idle again (0 context switches in 2 s)" \
  test "$((after - before))" = 0

kill -TERM "$follower"
check "the follower ends quietly on SIGTERM" wait_for -t 5 bash -c "! kill -0 $follower 2> /dev/null"
check "nothing on the bar's stderr but its own" bash -c "! grep -q 'nudge:' '$work/bar.err'"
e2e_done
