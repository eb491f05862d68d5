#!/usr/bin/env bash
# A notification server that draws every action as a button (xfce4-notifyd), clicked with the
# mouse (xdotool) as a person would: Open appears once; All prepped, Snooze and Replay work.
# Xvfb, a private D-Bus session, tmux as the terminal a click opens. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
NUDGE=${NUDGE_BIN:-$PWD/.build/debug/nudge}
NUDGE=$(readlink -f "$NUDGE")
notifyd=/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd
artifacts=${ARTIFACTS:-$PWD/artifacts}
mkdir -p "$artifacts"
work=$(mktemp -d)
display=:$((40 + RANDOM % 9))
socket="nudge-buttons-$$-$RANDOM$RANDOM"
Xvfb "$display" -screen 0 1024x768x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; tmux -L "$socket" kill-server 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
sleep 1
tmux -L "$socket" new-session -d -s flow -x 100 -y 40 "sleep 600"

cat > "$work/case.sh" <<'CASE'
set -u
export DISPLAY XDG_DATA_HOME="$WORK/data" XDG_CONFIG_HOME="$WORK/config" TZ=Europe/Berlin
"$NOTIFYD" > "$WORK/notifyd.log" 2>&1 &
for i in $(seq 100); do
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications 2>/dev/null | grep -q true && break
  sleep 0.1
done
"$NUDGE" install > /dev/null 2>&1   # the icon, in the hicolor theme
"$NUDGE" config set terminal "tmux -L $SOCKET new-window -t flow -n clicked -e XDG_DATA_HOME=$WORK/data -e TZ=Europe/Berlin" > /dev/null

# notification WINDOW: the newest notification window, once it is mapped (5 s)
window() {
  for i in $(seq 50); do
    w=$(xdotool search --onlyvisible --class xfce4-notifyd 2>/dev/null | tail -1)
    if [ -n "$w" ]; then
      h=$(xdotool getwindowgeometry --shell "$w" | sed -n 's/^HEIGHT=//p')
      [ "${h:-0}" -gt 40 ] && { echo "$w"; return 0; }
    fi
    sleep 0.1
  done
  return 1
}
# click BUTTON-INDEX BUTTON-COUNT: a left click on a button of the newest notification. The
# buttons sit in its bottom row; their x ranges are read off the screen (runs of non-white
# pixels wider than 30), and there must be exactly BUTTON-COUNT of them.
click() {
  local w x y centers
  w=$(window) || return 1
  eval "$(xdotool getwindowgeometry --shell "$w")"
  y=$((HEIGHT - 31))
  centers=$(import -window root -crop "${WIDTH}x1+${X}+$((Y + y))" txt:- | python3 -c '
import re, sys
dark = [not l.rstrip().endswith(("white", "#FFFFFF", "srgb(255,255,255)")) for l in sys.stdin if not l.startswith("#")]
runs, start = [], None
for i, d in enumerate(dark + [False]):
    if d and start is None: start = i
    if not d and start is not None:
        if i - start > 30: runs.append((start + i) // 2)
        start = None
print(" ".join(map(str, runs)))')
  set -- "$1" "$2" $centers
  [ $(($# - 2)) = "$2" ] || { echo "expected $2 buttons, saw $(($# - 2))" >&2; return 1; }
  shift "$(( $1 + 2 ))"
  xdotool mousemove "$((X + $1))" "$((Y + y))" click 1
}

# evening: Open, All prepped, Snooze; click All prepped, then the celebration's one button
NUDGE_NOW=2026-11-23T21:30:05+01:00 "$NUDGE" notify evening --wait 20 --json > "$WORK/evening.json" &
window > /dev/null && sleep 0.5 && import -window root "$WORK/evening.png"
click 1 3 || echo "evening: not three buttons" >> "$WORK/problems"
sleep 1.5
window > /dev/null && import -window root "$WORK/celebration.png"
click 0 1 || echo "celebration: not one button" >> "$WORK/problems"
wait %2

# morning: Open, Snooze; Snooze (1 s), then Open on the reminder that comes back
NUDGE_NOW=2026-11-24T07:00:05+01:00 "$NUDGE" notify morning --wait 20 --snooze-seconds 1 --json > "$WORK/morning.json" &
window > /dev/null && sleep 0.5
click 1 2 || echo "morning: not two buttons" >> "$WORK/problems"
sleep 2.5
click 0 2 || echo "morning again: not two buttons" >> "$WORK/problems"
wait %3
NUDGE_NOW=2026-11-24T07:01:00+01:00 "$NUDGE" log --json > "$WORK/log.json"
kill %1
CASE
WORK="$work" NUDGE="$NUDGE" NOTIFYD="$notifyd" SOCKET="$socket" DISPLAY="$display" \
  timeout 120 dbus-run-session -- bash "$work/case.sh" > "$work/log" 2>&1
cp "$work/evening.png" "$artifacts/xfce4-notifyd-evening.png" 2>/dev/null
cp "$work/celebration.png" "$artifacts/xfce4-notifyd-celebration.png" 2>/dev/null

passed=0 failed=0
check() {
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"
  else failed=$((failed + 1)); echo "FAIL $name"; fi
}
outcomes=$(python3 -c "import json; print(' '.join(e['outcome'] for e in json.load(open('$work/log.json'))))" 2>/dev/null)
echo "log: $outcomes"
check "buttons: the evening reminder was drawn" test -s "$work/evening.png"
check "buttons: Open once (3 buttons evening, 2 morning, 1 celebration)" test ! -s "$work/problems"
[ -s "$work/problems" ] && cat "$work/problems"
check "buttons: All prepped saved the whole checklist" bash -c "XDG_DATA_HOME=$work/data NUDGE_NOW=2026-11-23T22:00:00+01:00 '$NUDGE' history --json --days 1 | python3 -c \"import json,sys; p=json.load(sys.stdin)[0]['prep']; sys.exit(0 if p and all(p[k] for k in ('sticky_notes','produce','water','breakfast')) else 1)\""
# pane_shows TEXT: some window a click opened shows TEXT (3 s)
pane_shows() {
  for _ in $(seq 30); do
    for pane in $(tmux -L "$socket" list-panes -s -t flow -F '#{pane_id}' 2>/dev/null); do
      tmux -L "$socket" capture-pane -p -t "$pane" | grep -qF -- "$1" && return 0
    done
    sleep 0.1
  done
  return 1
}
check "buttons: Replay (the celebration's one button) replayed it" pane_shows "New achievement: First prep."
check "buttons: Snooze brought the morning reminder back, Open opened it" \
  test "$outcomes" = "shown done shown snoozed clicked"
check "buttons: Open landed in Morning Focus" pane_shows "Review your prep"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
