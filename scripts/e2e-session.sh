#!/usr/bin/env bash
# A reminder's whole life in a real desktop session: a real systemd user manager (in a private
# mount namespace) with its own session bus, Xvfb, dunst started as the desktop would start it,
# `nudge install`, timers firing at their calendar time, real clicks (dunstctl), xterm as the
# terminal a click opens (typed into with xdotool). Prints "N passed, N failed".
# Needs root (the namespace and the tmpfs on /run/systemd), as CI runs it.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ -z "${NUDGE_SESSION_NAMESPACE:-}" ]; then
  exec unshare -m env NUDGE_SESSION_NAMESPACE=1 "$0" "$@"
fi
. scripts/lib/e2e.sh
NUDGE=${NUDGE_BIN:-$PWD/.build/debug/nudge}
NUDGE=$(readlink -f "$NUDGE")
artifacts=${ARTIFACTS:-$PWD/artifacts}
mkdir -p "$artifacts"
# every process started here carries the suite's mark, the user manager and what it starts too
# (the terminals a click opens): the end stops the manager, then whatever is left of those
e2e_init --sweep /tmp/nudge-session.XXXXXX
mount --make-rprivate /
mount -t tmpfs tmpfs /run/systemd
mkdir -p /run/systemd/system
export HOME=$work/home XDG_RUNTIME_DIR=$work/run TZ=UTC
mkdir -p "$HOME/.config/dunst" "$XDG_RUNTIME_DIR" "$HOME/.local/share/dbus-1/services"
# the session's notification server is dunst (other installed servers are not activated)
cat > "$HOME/.local/share/dbus-1/services/org.freedesktop.Notifications.service" <<'SERVICE'
[D-BUS Service]
Name=org.freedesktop.Notifications
Exec=/usr/bin/dunst
SystemdService=dunst.service
SERVICE
chmod 700 "$XDG_RUNTIME_DIR"
unset DBUS_SESSION_BUS_ADDRESS DISPLAY WAYLAND_DISPLAY NUDGE_NOW NUDGE_DB XDG_DATA_HOME XDG_CONFIG_HOME
xvfb_start  # $display; the manager gets it later, as a desktop session would give it
env -i HOME="$HOME" XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" PATH=/usr/local/bin:/usr/bin:/bin E2E_MARK="$E2E_MARK" \
  /lib/systemd/systemd --user > "$work/manager.log" 2>&1 &
manager=$!
on_exit 'kill "$manager"; wait "$manager"'
sockets() { [ -S "$XDG_RUNTIME_DIR/bus" ] && [ -S "$XDG_RUNTIME_DIR/systemd/private" ]; }
wait_for -t 10 sockets
export DBUS_SESSION_BUS_ADDRESS=unix:path=$XDG_RUNTIME_DIR/bus
displayed() { dunst_displayed "$1"; }
last_outcome() { "$NUDGE" log --json | json_get - "j[-1]['outcome'] if j else ''"; }
last_is() { test "$(last_outcome)" = "$1"; }
log_outcomes() { "$NUDGE" log --json | outcomes -; }
unit_state() { systemctl --user show -p ActiveState --value "$1"; }
unit_is() { test "$(unit_state "$1")" = "$2"; }
# at_next SLOT SECONDS: the slot's expression fires SECONDS from now (UTC, whatever the zone)
at_next() { "$NUDGE" schedule set "$1" "*-*-* $(date -u -d "+$2 sec" +%H:%M:%S) UTC" > /dev/null; }

# The user's setup: a terminal, short windows and snooze so the test takes minutes, not hours.
# A day starts at a rollover hour far from now, so the test never straddles two days.
hour=$(date -u +%H)
rollover=0; [ "${hour#0}" -lt 6 ] && rollover=12
"$NUDGE" config set rollover-hour $rollover > /dev/null
"$NUDGE" config set terminal "xterm -e" > /dev/null
"$NUDGE" config set snooze 10s > /dev/null
"$NUDGE" config set staleness.midday 1m > /dev/null
# what a desktop session's manager has: the zone and a UTF-8 locale (the terminal inherits it)
systemctl --user set-environment TZ=UTC LANG=C.UTF-8
"$NUDGE" install > "$work/install.out" 2>&1
check "install: timers enabled in the user manager" \
  test "$(systemctl --user is-enabled nudge-morning.timer nudge-evening.timer | sort -u)" = enabled
if [ "$NUDGE" = /usr/bin/nudge ] && [ -e /usr/lib/systemd/user/nudge-notify@.service ]; then
  # the Debian package: its units, handler and icon; install only enabled and wrote drop-ins
  check "install (package): the packaged units are used, no copies written" \
    bash -c "test ! -e '$HOME/.config/systemd/user/nudge-notify@.service' && systemctl --user cat nudge-morning.timer | grep -q '^# /usr/lib/systemd/user/nudge-morning.timer'"
  check "install (package): icon in the hicolor theme, named by the packaged handler" \
    bash -c "test -s /usr/share/icons/hicolor/scalable/apps/nudge.svg && grep -qx 'Icon=nudge' /usr/share/applications/nudge.desktop && grep -qx 'Exec=/usr/bin/nudge open %u' /usr/share/applications/nudge.desktop"
  check "install (package): doctor names the binary the timers run" \
    bash -c "'$NUDGE' doctor 2>/dev/null | grep -q 'running /usr/bin/nudge'"
else
  check "install: icon in the hicolor theme, named by the handler" \
    bash -c "test -s '$HOME/.local/share/icons/hicolor/scalable/apps/nudge.svg' && grep -qx 'Icon=nudge' '$HOME/.local/share/applications/nudge.desktop'"
fi
check "install: the weekly timer is there but off until turned on" \
  test "$(systemctl --user is-enabled nudge-weekly.timer)" = disabled
"$NUDGE" schedule on weekly > /dev/null
weekly_next() { TZ=UTC systemctl --user show -p NextElapseUSecRealtime --value nudge-weekly.timer | grep -qE '^Sun [0-9-]+ 18:00:00'; }
weekly_waits() { test "$(systemctl --user is-enabled nudge-weekly.timer)" = enabled && wait_for -t 3 weekly_next; }
check "schedule on weekly: its timer enabled and waiting for Sunday 18:00 (UTC, the manager's zone)" weekly_waits
"$NUDGE" schedule off weekly > /dev/null
check "schedule off weekly: its timer disabled again" \
  test "$(systemctl --user is-enabled nudge-weekly.timer)" = disabled
check "install: each slot's service bounded by its window" \
  test "$(systemctl --user show -p RuntimeMaxUSec --value nudge-notify@midday.service)" = 4min
# undo and redo of a reminder time and of a window put the units back as the commands would
"$NUDGE" undo > "$work/undo.out" 2>&1
check "undo of schedule off weekly: its timer enabled again, waiting for Sunday 18:00" weekly_waits
"$NUDGE" redo > "$work/redo.out" 2>&1
check "redo of schedule off weekly: its timer disabled again" \
  test "$(systemctl --user is-enabled nudge-weekly.timer)" = disabled
"$NUDGE" config set staleness.midday 5m > /dev/null
midday_max() { test "$(systemctl --user show -p RuntimeMaxUSec --value nudge-notify@midday.service)" = "$1"; }
check "config set staleness.midday 5m: the service's bound follows (8min)" midday_max 8min
"$NUDGE" undo > "$work/undo.out" 2>&1
check "undo of the window: the service bounded by the old one again (4min)" midday_max 4min

# 1. Login catch-up: the timer fires before the desktop's notification server exists (no
#    DISPLAY in the manager, so D-Bus activation of dunst fails); the reminder waits for it.
at_next morning 2
wait_for -t 10 unit_is nudge-notify@morning.service active
sleep 4  # a fixed wait on purpose: the test, 4 s without a server (past the 3 s a post is given) and no give-up
check "catch-up: waits for a notification server (nothing logged undelivered)" \
  bash -c "! '$NUDGE' log --json | grep -q undelivered"
DISPLAY=$display systemctl --user import-environment DISPLAY
systemctl --user start dunst.service
check "catch-up: shown once the server appears" wait_for -t 10 displayed 1
check "catch-up: logged shown" test "$(log_outcomes)" = "shown"
DISPLAY=$display import -window root "$artifacts/session-reminder.png" 2>/dev/null

# 2. Open: the flow's terminal runs in its own scope; the reminder's unit ends inactive.
dunstctl action 0
wait_for -t 10 last_is clicked
# xterm_pid [LINK]: the xterm a click (or the handler) started for nudge://LINK (review)
xterm_pid() { pgrep -f "^/usr/bin/xterm -e $NUDGE open --hold nudge://${1:-review}" | head -1; }
xterm_seen() { test -n "$(xterm_pid "$@")"; }
check "open: an xterm starts for nudge://review" wait_for -t 10 xterm_seen
pid=$(xterm_pid)
check "open: the terminal is in its own scope, not the reminder's service" \
  grep -q "nudge-open-.*\.scope" "/proc/$pid/cgroup"
check "open: the reminder's unit ends inactive, not failed" \
  wait_for -t 10 unit_is nudge-notify@morning.service inactive
check "open: the terminal starts with no blocked signals" grep -qx "SigBlk:	0000000000000000" "/proc/$pid/status"
systemctl --user stop nudge-notify@morning.service
sleep 1  # a fixed wait on purpose: the test, a terminal the stop took with it would be gone a second later
check "open: the terminal survives a stop of the reminder's unit" kill -0 "$pid"
has_window() { DISPLAY=$display xdotool search --pid "$pid" > /dev/null 2>&1; }
wait_for -t 10 has_window
window=$(DISPLAY=$display xdotool search --pid "$pid" 2>/dev/null | head -1)
# the flow in the terminal (xterm -e runs nudge itself) waits for a line: blocked in read(0)
reading() {
  local flow
  flow=$(pgrep -P "$pid" | head -1)
  [[ $(cat "/proc/${flow:-0}/syscall" 2> /dev/null) == "0 0x0 "* ]]
}
# answers N: the flow has kept N answers (each answer is kept as a draft the moment it is given)
answers() {
  [ "$(sqlite3 "$HOME/.local/share/nudge/nudge.sqlite3" \
    "SELECT json_array_length(answers) FROM draft WHERE flow = 'review'" 2> /dev/null)" = "$1" ]
}
type_line() { DISPLAY=$display xdotool type --delay 20 "$1"; DISPLAY=$display xdotool key Return; }
DISPLAY=$display xdotool windowfocus --sync "$window" 2>/dev/null
wait_for -t 10 reading
n=0
for answer in "energy" "3" "sparkling water" "drink sparkling water"; do
  type_line "$answer"
  n=$((n + 1))
  wait_for answers "$n" && wait_for reading
done
type_line "soda"
swap_saved() { "$NUDGE" history --json --days 1 | grep -q '"swap" : "sparkling water"'; }
wait_for swap_saved
DISPLAY=$display import -window root "$artifacts/session-flow-done.png" 2>/dev/null
check "open: the answers typed in the terminal were saved" swap_saved
check "open: the terminal stays open after the flow (Press Enter to close)" kill -0 "$pid"
wait_for reading  # "Press Enter to close this window", once the celebration is over
DISPLAY=$display xdotool key Return
check "open: Enter closes it" wait_for -t 5 bash -c "! kill -0 $pid 2>/dev/null"

# 3. Stop: systemctl stop withdraws a shown reminder and the unit ends inactive.
"$NUDGE" schedule on midday > /dev/null
at_next midday 2
check "stop: the midday reminder is shown" wait_for -t 10 displayed 1
systemctl --user stop nudge-notify@midday.service
check "stop: the reminder is taken off the screen" wait_for -t 3 displayed 0
check "stop: logged withdrawn" last_is withdrawn
check "stop: the unit is inactive, not failed" unit_is nudge-notify@midday.service inactive

# 4. A notification server restart: the reminder is shown again on the new server, once.
at_next midday 2
wait_for -t 10 displayed 1
systemctl --user restart dunst.service  # (it returns once the new dunst owns the name)
check "restart: the reminder is shown again on the new server" wait_for -t 10 displayed 1
check "restart: nothing undelivered" bash -c "! '$NUDGE' log --json | grep -q undelivered"

# 5. Window end: after the slot's staleness window (1 minute) the reminder withdraws itself.
echo "(waiting for the midday window to end, about a minute)"
check "window end: withdrawn when the window ends" wait_for -t 90 last_is withdrawn
check "window end: off the screen" wait_for -t 3 displayed 0
check "window end: the unit ends inactive, not failed" \
  wait_for -t 5 unit_is nudge-notify@midday.service inactive

# 5b. A plan's own reminder time: a plan file dropped into the config folder gets its own
#     timer from install, which fires for real and shows its flow's reminder; plan off disables it.
mkdir -p "$HOME/.config/nudge/plans"
cat > "$HOME/.config/nudge/plans/walking.plan" <<PLAN
format = 1
[plan]
name = "walking"
title = "Walking"
on = true
[[slot]]
id = "noon"
at = "*-*-* $(date -u -d '+4 sec' +%H:%M:%S) UTC"
title = "A walk at lunch?"
[[flow]]
id = "walk"
title = "Lunch walk"
slot = "noon"
first = "First walk"
[[flow.question]]
id = "minutes"
ask = "How many minutes?"
kind = "number"
required = true
PLAN
"$NUDGE" install > /dev/null 2>&1
check "plan slot: install enables its own timer" \
  test "$(systemctl --user is-enabled nudge-walking.noon.timer)" = enabled
check "plan slot: its timer fires and its reminder is shown" wait_for -t 15 displayed 1
plan_logged() { "$NUDGE" log --json | json_check - "[e['outcome'] for e in j if e['slot'] == 'walking.noon'] == ['shown']"; }
check "plan slot: logged shown for walking.noon" wait_for -t 5 plan_logged
dunstctl close-all
wait_for -t 10 unit_is nudge-notify@walking.noon.service inactive
"$NUDGE" plan off walking > /dev/null
check "plan slot: plan off disables its timer" \
  test "$(systemctl --user is-enabled nudge-walking.noon.timer)" = disabled

# 5c. A habit of one's own: `habit add --at` (installed) gives it a timer of its own, which fires
#     for real; its Done (the button a dunst rule makes the click) records it with no terminal;
#     `habit remove` stops and removes the timer.
cat > "$HOME/.config/dunst/dunstrc" <<RC
[habit]
    appname = nudge
    summary = "Stretch"
    action_name = done
RC
systemctl --user restart dunst.service
"$NUDGE" habit add Stretch --at "*-*-* $(date -u -d '+4 sec' +%H:%M:%S) UTC" \
  --at "*-*-* $(date -u -d '+30 sec' +%H:%M:%S) UTC" > /dev/null
check "habit: add enables its own timer" \
  test "$(systemctl --user is-enabled nudge-habit.h1.timer)" = enabled
check "habit: its second --at is a second timer, enabled" \
  test "$(systemctl --user is-enabled nudge-habit.h1.2.timer)" = enabled
check "habit: its timer fires and its reminder is shown" wait_for -t 15 displayed 1
dunstctl action 0
habit_logged() { "$NUDGE" log --json | json_check - "[e['outcome'] for e in j if e['slot'] == 'habit.h1'] == ['shown', 'done']"; }
check "habit: Done clicked on dunst: logged shown, then done" wait_for -t 10 habit_logged
habit_done() { "$NUDGE" habit list --json | json_check - "j[0]['done_today'] is True"; }
check "habit: it is done today" habit_done
check "habit: no terminal was opened for it" test -z "$(pgrep -f 'nudge://habit')"
check "habit: the reminder's unit ends inactive, not failed" \
  wait_for -t 10 unit_is nudge-notify@habit.h1.service inactive
second_quiet() { "$NUDGE" log --json | json_check - "[e['outcome'] for e in j if e['slot'] == 'habit.h1.2'] == ['skipped-done']"; }
check "habit: its second timer fires and stays quiet, the day done" wait_for -t 40 second_quiet
dunstctl close-all
"$NUDGE" habit remove stretch --yes > /dev/null
timer_gone() { ! systemctl --user cat nudge-habit.h1.timer nudge-habit.h1.2.timer > /dev/null 2>&1; }
check "habit: remove stops and removes its timer" timer_gone

# 6. Snooze survives its process: a transient timer re-posts it; then done elsewhere.
cat > "$HOME/.config/dunst/dunstrc" <<RC
[snooze]
    appname = nudge
    action_name = snooze
RC
systemctl --user restart dunst.service
at_next evening 2
check "snooze: the evening reminder is shown" wait_for -t 10 displayed 1
dunstctl action 0
check "snooze: logged snoozed" wait_for -t 10 last_is snoozed
check "snooze: the posting process is gone, its unit inactive" \
  wait_for -t 10 unit_is nudge-notify@evening.service inactive
check "snooze: a transient timer holds it" \
  bash -c "systemctl --user list-timers --all | grep -q nudge-snooze-evening"
check "snooze: the reminder comes back" wait_for -t 20 displayed 1
check "snooze: logged shown again" last_is shown
"$NUDGE" prep --item water=yes --no-input > /dev/null
check "done elsewhere: the reminder is withdrawn within 5 s" wait_for -t 5 displayed 0
check "done elsewhere: logged done-elsewhere" wait_for -t 2 last_is done-elsewhere

# 6b. The nudge:// handler launched by a desktop with a focus token (KIO and GIO launch it with a
#     startup id): `nudge open` hands the token to the terminal it starts, through the scope.
DISPLAY=$display DESKTOP_STARTUP_ID=handler-token_TIME42 "$NUDGE" open nudge://checkin < /dev/null
check "handler with a token: an xterm starts for nudge://checkin" wait_for -t 10 xterm_seen checkin
tpid=$(xterm_pid checkin)
check "handler with a token: the terminal runs in its own scope" \
  grep -q "nudge-open-.*\.scope" "/proc/$tpid/cgroup"
check "handler with a token: the token reaches the terminal (DESKTOP_STARTUP_ID, X11)" \
  bash -c "tr '\\0' '\\n' < /proc/$tpid/environ | grep -qx DESKTOP_STARTUP_ID=handler-token_TIME42"
kill "$tpid" 2>/dev/null

# 8. Last night from a watch (issue 53): a phone's sync copies an Apple Health export into a
#    source folder (written under another name, then renamed, as Syncthing does); the morning
#    timer fires; the reminder takes the export in before it decides its words, and its body
#    carries the readiness line; `nudge sleep` offers the watch's bedtime in a real terminal.
mkdir -m 700 "$work/phone" "$work/gen"
python3 scripts/health-export-gen --years 0.1 --end "$(date -u +%F)" \
  --out "$work/gen/export.xml" --zip "$work/gen/export.zip" > /dev/null
"$NUDGE" health source add "$work/phone" > /dev/null 2>&1
cp "$work/gen/export.zip" "$work/phone/.syncthing.export.zip.tmp"
mv "$work/phone/.syncthing.export.zip.tmp" "$work/phone/export.zip"
# this morning's review (section 2's) taken back, so the morning has a reminder to give
"$NUDGE" delete today review --yes > /dev/null 2>&1
dunstctl close-all
at_next morning 3
check "health: the morning reminder is shown" wait_for -t 20 displayed 1
dunstctl close
health_body() { dunstctl history | grep -q "Readiness: \(green\|amber\|red\) — "; }
check "health: its body carries last night's readiness line" wait_for -t 5 health_body
check "health: the reminder took the folder's export in (nudge health reads it)" \
  bash -c "'$NUDGE' health --json | grep -q '\"readiness\": \"'"
check "health: the health store is the user's alone (0600), beside the database" \
  test "$(stat -c %a "$HOME/.local/share/nudge/health.sqlite3")" = 600
"$NUDGE" plan on sleep > /dev/null
# the flow and the report read at one time of the day, after this suite's rollover hour (12
# when the suite runs before 06:00, else 0): before it `nudge sleep` asks of the night before
# last, while `health --json` reports the latest night, so the real clock would fail at night
morning=$(date -u +%FT$([ "$rollover" = 12 ] && echo 13 || echo 09):00:00Z)
tmux_init
tmux_start "env NUDGE_NOW=$morning $NUDGE sleep"
check "health: nudge sleep offers the watch's bedtime and wake" \
  tmux_wait_for "Your watch measured sleep from" 10
night=$(NUDGE_NOW=$morning "$NUDGE" health --json | json_get - "j['sleep']['sleep_start'][11:16]")
check "health: the bedtime offered is the watch's ($night)" \
  tmux_wait_for "When did you go to bed? (HH:MM) [$night]" 5
tm kill-session -t flow 2> /dev/null

# 9. The tray with the session (issue 55): `nudge tray on` enables nudge-tray.service for the
#    graphical session; a session coming up (a target binding graphical-session.target, as a
#    desktop's session unit does) starts the tray, which serves its item on the session bus;
#    the session ending stops it; `nudge tray off` disables it.
# (another suite's waybar is wanted by every graphical session of this machine: not this one)
systemctl --user mask waybar.service > /dev/null 2>&1
"$NUDGE" tray on > "$work/tray-on.out" 2>&1
check "tray on: the unit is enabled for the graphical session" \
  test "$(systemctl --user is-enabled nudge-tray.service)" = enabled
check "tray on: no session now, so it waits for one (said)" grep -q "none is up now" "$work/tray-on.out"
# (the package ships the unit, and tray on only enables it: no copy is written)
tray_unit=$HOME/.config/systemd/user/nudge-tray.service
packaged_tray=false
if [ "$NUDGE" = /usr/bin/nudge ] && [ -e /usr/lib/systemd/user/nudge-tray.service ]; then
  tray_unit=/usr/lib/systemd/user/nudge-tray.service packaged_tray=true
fi
check "tray on: systemd-analyze verifies the unit ($tray_unit)" \
  systemd-analyze verify --user --man=no "$tray_unit"
cat > "$HOME/.config/systemd/user/e2e-desktop.target" <<'UNIT'
[Unit]
Description=a desktop session, as a session manager's target is
BindsTo=graphical-session.target
Before=graphical-session.target
Wants=graphical-session-pre.target
After=graphical-session-pre.target
UNIT
systemctl --user daemon-reload
systemctl --user start e2e-desktop.target
tray_on_bus() { busctl --user list --no-legend | grep -q "^org.kde.StatusNotifierItem-[0-9]*-1 "; }
check "session up: the tray starts with it" wait_for -t 10 unit_is nudge-tray.service active
check "session up: its item is on the session bus" wait_for -t 10 tray_on_bus
tray_pid=$(systemctl --user show -p MainPID --value nudge-tray.service)
item_icon() { busctl --user get-property "org.kde.StatusNotifierItem-$tray_pid-1" /StatusNotifierItem org.kde.StatusNotifierItem IconName | grep -qE '^s "nudge-(due|done|paused)"$'; }
check "session up: the item answers a panel, its icon today's state" item_icon
systemctl --user stop e2e-desktop.target
check "session ended: the tray stops with it, not failed" \
  wait_for -t 10 unit_is nudge-tray.service inactive
"$NUDGE" tray off > /dev/null
tray_off() {
  if $packaged_tray; then
    test "$(systemctl --user is-enabled nudge-tray.service)" = disabled
  else
    ! systemctl --user cat nudge-tray.service > /dev/null 2>&1
  fi
}
check "tray off: disabled, and the copy it wrote gone" tray_off

# 7. doctor reads the user manager's environment.
"$NUDGE" doctor --json > "$work/doctor.json" 2>/dev/null
display_check() {  # display_check EXPR: EXPR over d, doctor's check of the manager's display
  json_check "$work/doctor.json" "(lambda d: $1)(next(x for x in j if x['name'] == \"user manager's display\"))"
}
check "doctor: the manager's DISPLAY is seen" display_check "d['ok']"
systemctl --user unset-environment DISPLAY
"$NUDGE" doctor --json > "$work/doctor.json" 2>/dev/null
check "doctor: a manager without DISPLAY fails with the import-environment fix" \
  display_check "not d['ok'] and 'import-environment' in d['fix']"

e2e_done
