#!/usr/bin/env bash
# A notification server that draws every action as a button (xfce4-notifyd), clicked with the
# mouse (xdotool) as a person would: Open appears once; All prepped, Snooze, Replay and a
# habit's Done and No work.
# Xvfb, a private D-Bus session, tmux as the terminal a click opens. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/e2e.sh
NUDGE=${NUDGE_BIN:-$PWD/.build/debug/nudge}
NUDGE=$(readlink -f "$NUDGE")
notifyd=/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd
artifacts=${ARTIFACTS:-$PWD/artifacts}
mkdir -p "$artifacts"
e2e_init --sweep
xvfb_start
tmux_init
socket=$E2E_TMUX
tmux_hold flow

cat > "$work/case.sh" <<'CASE'
. "$E2E_LIB"
set -u
export DISPLAY XDG_DATA_HOME="$WORK/data" XDG_CONFIG_HOME="$WORK/config" TZ=Europe/Berlin
"$NOTIFYD" > "$WORK/notifyd.log" 2>&1 &
wait_bus_name org.freedesktop.Notifications 10
"$NUDGE" install > /dev/null 2>&1   # the icon, in the hicolor theme
"$NUDGE" config set terminal "tmux -L $SOCKET new-window -t flow -n clicked -e XDG_DATA_HOME=$WORK/data -e TZ=Europe/Berlin" > /dev/null

# newest_window: the newest notification window, if one is mapped
newest_window() {
  local w h
  w=$(xdotool search --onlyvisible --class xfce4-notifyd 2>/dev/null | tail -1)
  [ -n "$w" ] || return 1
  h=$(xdotool getwindowgeometry --shell "$w" | sed -n 's/^HEIGHT=//p')
  [ "${h:-0}" -gt 40 ] && echo "$w"
}
no_window() { ! newest_window > /dev/null; }
# button_row COUNT: the newest notification shows exactly COUNT buttons (sets X, Y, y: its
# bottom row, and centers: their x centres). The buttons sit in its bottom row; their x ranges
# are read off the screen (runs of non-white pixels wider than 30).
button_row() {
  local w
  centers=
  w=$(newest_window) || return 1
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
  [ "$(wc -w <<< "$centers")" = "$1" ]
}
# click BUTTON-INDEX BUTTON-COUNT: a left click on a button of the newest notification, once it
# shows exactly BUTTON-COUNT buttons (5 s)
click() {
  wait_for button_row "$2" || { echo "expected $2 buttons, saw $(wc -w <<< "$centers")" >&2; return 1; }
  set -- "$1" $centers
  shift "$(( $1 + 1 ))"
  xdotool mousemove "$((X + $1))" "$((Y + y))" click 1
}

# evening: Open, All prepped, Snooze; click All prepped, then the celebration's one button
NUDGE_NOW=2026-11-23T21:30:05+01:00 "$NUDGE" notify evening --wait 20 --json > "$WORK/evening.json" &
wait_for button_row 3 && import -window root "$WORK/evening.png"
click 1 3 || echo "evening: not three buttons" >> "$WORK/problems"
# the celebration that follows: one button
wait_for button_row 1 && import -window root "$WORK/celebration.png"
click 0 1 || echo "celebration: not one button" >> "$WORK/problems"
wait %2

# morning: Open, Snooze; Snooze (1 s), then Open on the reminder that comes back
NUDGE_NOW=2026-11-24T07:00:05+01:00 "$NUDGE" notify morning --wait 20 --snooze-seconds 1 --json > "$WORK/morning.json" &
click 1 2 || echo "morning: not two buttons" >> "$WORK/problems"
wait_for -t 3 no_window  # snoozed: off the screen for a second, then back
click 0 2 || echo "morning again: not two buttons" >> "$WORK/problems"
wait %3
NUDGE_NOW=2026-11-24T07:01:00+01:00 "$NUDGE" log --json > "$WORK/log.json"

# a habit of one's own: Done, Snooze, Skip, No; Done records it with no terminal opened
NUDGE_NOW=2026-11-24T08:00:00+01:00 "$NUDGE" habit add Stretch --at 21:00 > /dev/null
NUDGE_NOW=2026-11-24T21:00:05+01:00 "$NUDGE" notify habit.h1 --wait 20 --json > "$WORK/habit.json" &
wait_for button_row 4 && import -window root "$WORK/habit.png"
click 0 4 || echo "habit: not four buttons (Done, Snooze, Skip, No)" >> "$WORK/problems"
wait %4
# and No, the fourth: the day said not done
NUDGE_NOW=2026-11-24T08:00:00+01:00 "$NUDGE" habit add Floss --at 21:00 > /dev/null
wait_for no_window
NUDGE_NOW=2026-11-24T21:00:05+01:00 "$NUDGE" notify habit.h2 --wait 20 --json > "$WORK/habit-no.json" &
click 3 4 || echo "habit No: not four buttons" >> "$WORK/problems"
wait %5
NUDGE_NOW=2026-11-24T21:01:00+01:00 "$NUDGE" habit list --json > "$WORK/habits.json"
kill %1
CASE
WORK="$work" NUDGE="$NUDGE" NOTIFYD="$notifyd" SOCKET="$socket" DISPLAY="$display" \
  timeout 120 dbus-run-session -- bash "$work/case.sh" > "$work/log" 2>&1
cp "$work/evening.png" "$artifacts/xfce4-notifyd-evening.png" 2>/dev/null
cp "$work/celebration.png" "$artifacts/xfce4-notifyd-celebration.png" 2>/dev/null

outcomes=$(outcomes "$work/log.json")
echo "log: $outcomes"
check "buttons: the evening reminder was drawn" test -s "$work/evening.png"
check "buttons: Open once (3 buttons evening, 2 morning, 1 celebration)" test ! -s "$work/problems"
[ -s "$work/problems" ] && cat "$work/problems"
all_prepped() {
  XDG_DATA_HOME=$work/data NUDGE_NOW=2026-11-23T22:00:00+01:00 "$NUDGE" history --json --days 1 |
    json_check - "j[0]['prep'] and all(j[0]['prep'][k] for k in ('sticky_notes', 'produce', 'water', 'breakfast'))"
}
check "buttons: All prepped saved the whole checklist" all_prepped
# pane_shows TEXT: some window a click opened shows TEXT (3 s)
some_pane_shows() {
  local pane
  for pane in $(tm list-panes -s -t flow -F '#{pane_id}' 2>/dev/null); do
    tm capture-pane -p -t "$pane" | grep -qF -- "$1" && return 0
  done
  return 1
}
pane_shows() { wait_for -t 3 some_pane_shows "$1"; }
check "buttons: Replay (the celebration's one button) replayed it" pane_shows "New achievement: First prep."
check "buttons: Snooze brought the morning reminder back, Open opened it" \
  test "$outcomes" = "shown done shown snoozed clicked"
check "buttons: Open landed in Morning Focus" pane_shows "Review your prep"
cp "$work/habit.png" "$artifacts/xfce4-notifyd-habit.png" 2>/dev/null
check "buttons: a habit's Done (the first of its four buttons) recorded it, no terminal opened" \
  json_check "$work/habit.json" "j['outcome'] == 'done' and j['slot'] == 'habit.h1'"
check "buttons: the habit is done today" json_check "$work/habits.json" "j[0]['done_today'] is True"
check "buttons: a habit's No (the fourth button) marked the day failed" \
  json_check "$work/habit-no.json" "j['outcome'] == 'failed' and j['slot'] == 'habit.h2'"
check "buttons: the other habit is a no today" json_check "$work/habits.json" "j[1]['today'] == 'failed'"
e2e_done
