#!/usr/bin/env bash
# KDE Plasma 5.27 end to end (DESIGN §6): kwin_x11, kded5, kactivitymanagerd and plasmashell on
# Xvfb and a private D-Bus session; Plasma's own notification server, clicked with the mouse
# (xdotool) as a person would. A click on the body opens the flow in the terminal (tmux; then
# konsole, the system's x-terminal-emulator) with Plasma's activation token; Do Not Disturb (the
# Inhibit method) holds a reminder back; the close button dismisses one. Screenshots go to
# $ARTIFACTS. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/e2e.sh
NUDGE=$(readlink -f "${NUDGE_BIN:-$PWD/.build/debug/nudge}")
artifacts=${ARTIFACTS:-$PWD/artifacts}
mkdir -p "$artifacts"
artifacts=$(readlink -f "$artifacts")
started=$(date +%s)
# Every process the suite starts carries its mark ($E2E_MARK) in its environment, and so does
# whatever those start (services the bus activates, the terminals a click opens): the end stops
# exactly those.
e2e_init --sweep
tmux_init
socket=$E2E_TMUX

# A desktop session of its own: home, runtime dir, display; Plasma as DESIGN §6 starts it.
mkdir -p "$work/home" "$work/run"
chmod 700 "$work/run"
unset TERMINAL WAYLAND_DISPLAY XDG_SESSION_TYPE DESKTOP_STARTUP_ID XDG_ACTIVATION_TOKEN NUDGE_DB NUDGE_NOW \
  XDG_DATA_HOME XDG_CONFIG_HOME XDG_CACHE_HOME XDG_STATE_HOME
xvfb_start 1280x800x24
export DISPLAY=$display TZ=Europe/Berlin HOME=$work/home XDG_RUNTIME_DIR=$work/run
export QT_QUICK_BACKEND=software QT_QPA_PLATFORM=xcb KDE_FULL_SESSION=true XDG_CURRENT_DESKTOP=KDE \
  KDE_SESSION_VERSION=5 LIBGL_ALWAYS_SOFTWARE=1

# The session bus activates every service the system has, except the other notification servers
# (dunst, xfce4-notifyd) and Plasma's own wait-for-plasmashell stand-in: the name is plasmashell's.
mkdir -p "$work/services"
for f in /usr/share/dbus-1/services/*.service; do
  grep -q "^Name=org.freedesktop.Notifications$" "$f" || ln -s "$f" "$work/services/"
done
sed "s|<standard_session_servicedirs */>|<servicedir>$work/services</servicedir>|" \
  /usr/share/dbus-1/session.conf > "$work/session.conf"
dbus_start "$work/session.conf"

notifications() {  # notifications METHOD ARGS…: a call on Plasma's notification server
  local method=$1; shift
  gdbus call --session --timeout 5 --dest org.freedesktop.Notifications \
    --object-path /org/freedesktop/Notifications --method "$method" "$@"
}
inhibited() {
  notifications org.freedesktop.DBus.Properties.Get org.freedesktop.Notifications Inhibited
}

kamd=$(ls /usr/lib/*/libexec/kactivitymanagerd 2>/dev/null | head -1)
t0=$(date +%s%N)
kwin_x11 > "$work/kwin_x11.log" 2>&1 &
kded5 > "$work/kded5.log" 2>&1 &
"${kamd:-kactivitymanagerd}" > "$work/kactivitymanagerd.log" 2>&1 &
wait_bus_name org.kde.KWin 20
plasmashell > "$work/plasmashell.log" 2>&1 &
wait_bus_name org.freedesktop.Notifications 90
if bus_has org.freedesktop.Notifications; then
  echo "Plasma up after $(( ($(date +%s%N) - t0) / 1000000 )) ms"
else
  echo "Plasma did not start in 90 s; the end of plasmashell's log:"
  tail -15 "$work/plasmashell.log" | sed 's/^/  /'
fi
notifications org.freedesktop.Notifications.GetServerInformation > "$work/server" 2>&1
notifications org.freedesktop.Notifications.GetCapabilities > "$work/capabilities" 2>&1
echo "server: $(cat "$work/server")"
echo "capabilities: $(cat "$work/capabilities")"
server_program() {  # the program of the name's owner
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.Notifications 2>/dev/null |
    awk '/uint32/{print $2}' | xargs -r -I{} readlink /proc/{}/exe
}
check "plasma: plasmashell owns org.freedesktop.Notifications" test "$(server_program)" = /usr/bin/plasmashell
check "plasma: GetServerInformation says Plasma 5.27" grep -q "('Plasma', 'KDE', '5.27" "$work/server"
check "plasma: capabilities include actions and inhibitions" \
  bash -c "grep -q \"'actions'\" '$work/capabilities' && grep -q \"'inhibitions'\" '$work/capabilities'"

# Watches the notification interface (calls and signals) and Plasma's property changes.
monitor() {  # monitor FILE: starts dbus-monitor; $monitor_pid
  dbus-monitor --session "interface='org.freedesktop.Notifications'" \
    "type='signal',interface='org.freedesktop.DBus.Properties',path='/org/freedesktop/Notifications'" \
    > "$1" 2>&1 &
  monitor_pid=$!
  # it prints NameLost once it is a monitor: from then on it sees every message
  wait_for -t 3 grep -q "member=NameLost" "$1"
}
# events FILE: the monitored messages, one a line, tab-separated:
#   Notify APP SUMMARY ACTIONS(comma-separated) TIMEOUT | CloseNotification ID | Inhibit | UnInhibit
#   ActivationToken ID TOKEN | ActionInvoked ID KEY | NotificationClosed ID REASON
#   PropertiesChanged NAME VALUE
cat > "$work/events.py" <<'PY'
import re, sys
messages, current = [], None
for line in open(sys.argv[1], errors="replace"):
    line = line.rstrip("\n")
    head = re.match(r"^(method call|signal) .*member=(\w+)$", line)
    if head:
        current = [head.group(2), []]
        messages.append(current)
    elif current is not None:
        current[1].append(line)
def top(lines):  # the top-level arguments (three spaces in); arrays with their items
    args, array = [], None
    for l in lines:
        if l == "   ]" and array is not None:
            args.append(array); array = None
        elif l.startswith("   array ["):
            array = []
        elif array is not None:
            m = re.match(r'^ {6,}string "(.*)"$', l)
            if m: array.append(m.group(1))
            else:
                m = re.match(r"^\s+variant\s+\w+ (\S+)$", l)
                if m: array.append(m.group(1))
        else:
            m = re.match(r'^   (string|uint32|int32|boolean) "?(.*?)"?$', l)
            if m: args.append(m.group(2))
    return args
for member, lines in messages:
    a = top(lines)
    if member == "Notify" and len(a) >= 7:
        print("\t".join(["Notify", a[0], a[3], ",".join(a[5]), str(a[-1])]))
    elif member == "PropertiesChanged":
        changed = a[1] if len(a) > 1 and isinstance(a[1], list) else []
        # dict entries come out as name, value pairs
        for name, value in zip(changed[0::2], changed[1::2]):
            print("\t".join([member, name, value]))
    else:
        print("\t".join([member] + [x if isinstance(x, str) else ",".join(x) for x in a]))
PY
events() { python3 "$work/events.py" "$1"; }

# The notification popups on the screen (plasmashell's windows of the notification type).
popups() {
  local w
  for w in $(xdotool search --onlyvisible --class plasmashell 2>/dev/null); do
    xprop -id "$w" _NET_WM_WINDOW_TYPE 2>/dev/null | grep -q _NET_WM_WINDOW_TYPE_NOTIFICATION && echo "$w"
  done
}
popup_count() { test "$(popups | wc -l)" = "$1"; }
# drawn WINDOW: WINDOW is drawn (text on it: more than 16 colours) and still (the same pixels as
# when last asked); wait_drawn WINDOW: until it is (3 s)
drawn() {
  local shot
  [ -n "$1" ] || return 1
  shot=$(import -window "$1" rgb:- 2> /dev/null | md5sum)
  [ "$(import -window "$1" -format %k info:- 2> /dev/null)" -gt 16 ] 2> /dev/null &&
    [ "$shot" = "${last_shot:-}" ] && return 0
  last_shot=$shot
  return 1
}
wait_drawn() { last_shot=; wait_for -t 3 drawn "$1"; }
# wait_popup [SECONDS]: until a popup is on the screen (10 s), drawn and still
wait_popup() { wait_for -t "${1:-10}" popup_count 1 && wait_drawn "$(popups | tail -1)"; }
# click_at WINDOW DX DY: a left click at DX,DY in WINDOW (negative: from its right/bottom edge),
# then the pointer leaves (a hovered popup never times out)
click_at() {
  local X Y WIDTH HEIGHT SCREEN x y
  eval "$(xdotool getwindowgeometry --shell "$1")"
  x=$2 y=$3
  [ "$x" -lt 0 ] && x=$((WIDTH + x))
  [ "$y" -lt 0 ] && y=$((HEIGHT + y))
  xdotool mousemove "$((X + x))" "$((Y + y))" click 1
  xdotool mousemove 640 200
}
# The body: the first line under the summary (the header with the app's name and the close button
# is 28 px high, the summary line the next 20).
click_body() { click_at "$1" 100 56; }
click_close() { click_at "$1" -16 14; }
# finish PID SECONDS: waits for a nudge to end; Ctrl-C (it withdraws its reminder) after SECONDS
finish() {
  wait_for -t "$2" bash -c "! kill -0 $1 2>/dev/null" || kill -INT "$1" 2>/dev/null
  wait "$1" 2>/dev/null
}
log_outcomes() {  # log_outcomes DATA: the reminder log's outcomes, space-separated
  XDG_DATA_HOME=$1 "$NUDGE" log --json 2>/dev/null | outcomes -
}
# the token Plasma sent just before it invoked ACTION (the ActivationToken of the same id)
token_for() {  # token_for EVENTS ACTION
  awk -F'\t' -v action="$2" '$1=="ActivationToken"{t[$2]=$3} $1=="ActionInvoked" && $3==action && ($2 in t){print t[$2]; exit}' "$1"
}
env_value() { sed -n "s/^$2=//p" "$1" 2>/dev/null | head -1; }  # env_value FILE NAME

# click_morning_reminder [SHOT]: in case folder $c, starts watching the bus, posts the morning
# reminder (its data in $c/data), screenshots it to SHOT, clicks its body and waits for nudge
click_morning_reminder() {
  monitor "$c/bus"
  NUDGE_NOW=2026-11-18T07:00:05+01:00 XDG_DATA_HOME=$c/data "$NUDGE" notify morning --wait 60 \
    --json > "$c/out.json" 2> "$c/err" &
  local nudge=$!
  wait_popup
  [ -n "${1:-}" ] && import -window root "$1"
  popups > "$c/popups"
  [ -s "$c/popups" ] && click_body "$(tail -1 "$c/popups")"
  finish "$nudge" 10
}

tmux_hold flow
pane_shows() { tm capture-pane -p -t "flow:$1" 2>/dev/null | grep -qF -- "$2"; }

# 1. A click on the body of the morning reminder opens Morning Focus in the configured terminal, a
#    wrapper that records its environment and runs the flow in a tmux window; the terminal gets
#    the token Plasma sent with the click (DESKTOP_STARTUP_ID: an X11 session).
c=$work/click
mkdir -p "$c"
cat > "$c/terminal" <<SH
#!/bin/sh
env > "$c/terminal.env"
exec tmux -L "$socket" new-window -t flow -n clicked -e XDG_DATA_HOME=$c/data -e TZ=Europe/Berlin \
  -e NUDGE_NOW=2026-11-18T07:01:00+01:00 "\$@"
SH
chmod +x "$c/terminal"
XDG_DATA_HOME=$c/data "$NUDGE" config set terminal "$c/terminal" > /dev/null
click_morning_reminder "$artifacts/plasma-reminder.png"
wait_for -t 5 pane_shows clicked "1/4 My Why"
kill "$monitor_pid"
events "$c/bus" > "$c/events"
check "click: Plasma draws the reminder as a popup (plasma-reminder.png)" \
  bash -c "test -s '$c/popups' && test -s '$artifacts/plasma-reminder.png'"
check "click: the body invokes the default action, after an ActivationToken" \
  test -n "$(token_for "$c/events" default)"
check "click: Morning Focus opens in the terminal, at its first prompt" pane_shows clicked "1/4 My Why"
check "click: logged shown, then clicked" test "$(log_outcomes "$c/data")" = "shown clicked"
token=$(token_for "$c/events" default)
echo "Plasma's token: ${token:-none}; the terminal's DESKTOP_STARTUP_ID: $(env_value "$c/terminal.env" DESKTOP_STARTUP_ID)"
check "click: the terminal gets Plasma's token as DESKTOP_STARTUP_ID (X11)" \
  test -n "$token" -a "$(env_value "$c/terminal.env" DESKTOP_STARTUP_ID)" = "$token"
wait_for -t 5 popup_count 0

# 2. No terminal configured: konsole (Debian's x-terminal-emulator once Plasma is installed) opens
#    running `nudge open --hold nudge://…`, with the token too; then it is closed.
c=$work/konsole
mkdir -p "$c"
click_morning_reminder
konsole_window() { xdotool search --onlyvisible --class konsole 2>/dev/null | head -1 | grep .; }
wait_for -t 15 konsole_window > /dev/null
window=$(konsole_window)
kpid=$( [ -n "$window" ] && xdotool getwindowpid "$window" 2>/dev/null)
# its first prompt on the screen: the flow in konsole waits for a line (blocked in read(0)), and
# konsole has drawn it
flow_reading() {
  local p
  for p in $(pgrep -P "${kpid:-0}"); do
    [[ $(cat "/proc/$p/syscall" 2> /dev/null) == "0 0x0 "* ]] && return 0
  done
  return 1
}
[ -n "$window" ] && wait_for -t 5 flow_reading && wait_drawn "$window"
import -window root "$artifacts/plasma-konsole.png"
kill "$monitor_pid"
events "$c/bus" > "$c/events"
echo "konsole: window ${window:-none}, pid ${kpid:-none}: $(tr '\0' ' ' < "/proc/${kpid:-0}/cmdline" 2>/dev/null)"
check "konsole: a konsole window opens (plasma-konsole.png)" test -n "$window"
runs_flow() {  # konsole, started with -e nudge open --hold nudge://…, that runs in it
  local p
  test "$(readlink "/proc/${kpid:-0}/exe")" = /usr/bin/konsole || return 1
  tr '\0' ' ' < "/proc/$kpid/cmdline" | grep -qF -- "-e $NUDGE open --hold nudge://" || return 1
  for p in $(pgrep -P "$kpid"); do
    tr '\0' ' ' < "/proc/$p/cmdline" | grep -qF -- "$NUDGE open --hold nudge://" && return 0
  done
  return 1
}
check "konsole: it runs $NUDGE open --hold nudge://…" runs_flow
check "konsole: logged shown, then clicked" test "$(log_outcomes "$c/data")" = "shown clicked"
token=$(token_for "$c/events" default)
tr '\0' '\n' < "/proc/${kpid:-0}/environ" > "$c/konsole.env" 2>/dev/null
check "konsole: it gets Plasma's token as DESKTOP_STARTUP_ID" \
  test -n "$token" -a "$(env_value "$c/konsole.env" DESKTOP_STARTUP_ID)" = "$token"
[ -n "$kpid" ] && kill "$kpid"
no_konsole() { ! konsole_window > /dev/null; }
check "konsole: closed again" wait_for -t 5 no_konsole
wait_for -t 5 popup_count 0

# 3. Do Not Disturb: a helper holds Plasma's Inhibit (it lasts while the caller is on the bus).
#    Plasma reports it (the Inhibited property, PropertiesChanged) and draws no popup; the reminder
#    is held, then logged missed-dnd and posted again without buttons; when DND ends Plasma shows
#    what it kept back.
c=$work/dnd
mkdir -p "$c"
cat > "$work/inhibit.py" <<'PY'
# Holds Plasma's Do Not Disturb: calls org.freedesktop.Notifications.Inhibit (desktop_entry,
# reason, hints) -> cookie, prints the cookie and stays on the bus until SIGTERM.
import signal
from gi.repository import Gio, GLib
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
cookie = bus.call_sync("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                       "org.freedesktop.Notifications", "Inhibit",
                       GLib.Variant("(ssa{sv})", ("nudge-e2e", "the Do Not Disturb test", {})),
                       GLib.VariantType("(u)"), Gio.DBusCallFlags.NONE, 5000, None).unpack()[0]
print(cookie, flush=True)
loop = GLib.MainLoop()
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
loop.run()
PY
monitor "$c/bus"
inhibited > "$c/inhibited-before" 2>&1
/usr/bin/python3 "$work/inhibit.py" > "$c/cookie" 2> "$c/inhibit.err" &
holder=$!
wait_for -t 5 test -s "$c/cookie"
inhibited > "$c/inhibited-during" 2>&1
XDG_DATA_HOME=$c/data timeout 30 "$NUDGE" notify demo --wait 5 --json > "$c/out.json" 2> "$c/err"
echo "dnd: exit $?, $(tr -d '\n ' < "$c/out.json")"
sleep 0.5  # a fixed wait on purpose: the test, no popup shows up in the half second after nudge returned
popups > "$c/popups-during"
import -window root "$artifacts/plasma-dnd.png"
kill "$holder"
not_inhibited() { inhibited | grep -q false; }
wait_for -t 5 not_inhibited
inhibited > "$c/inhibited-after" 2>&1
wait_popup 3
popups > "$c/popups-after"
import -window root "$artifacts/plasma-dnd-after.png"
# a notification without buttons has Plasma's default timeout (5 s): it goes by itself
wait_for -t 10 popup_count 0
expired_seen() { events "$c/bus" | awk -F'\t' '$1=="NotificationClosed" && $3==1' | grep -q .; }
wait_for -t 3 expired_seen  # its NotificationClosed reached the monitor
kill "$monitor_pid"
events "$c/bus" > "$c/events"
grep -vE "^(NameAcquired|NameLost|GetCapabilities|GetServerInformation)" "$c/events" | sed 's/^/  /'
check "dnd: Inhibit returns a cookie" grep -qxE "[1-9][0-9]*" "$c/cookie"
check "dnd: the Inhibited property turns true, then false when the holder leaves the bus" bash -c \
  "grep -q false '$c/inhibited-before' && grep -q true '$c/inhibited-during' && grep -q false '$c/inhibited-after'"
check "dnd: Plasma emits PropertiesChanged Inhibited true, then false" \
  test "$(awk -F'\t' '$1=="PropertiesChanged" && $2=="Inhibited"{printf "%s ", $3}' "$c/events")" = "true false "
check "dnd: no popup while Do Not Disturb is on (plasma-dnd.png)" test ! -s "$c/popups-during"
echo "dnd: logged: $(log_outcomes "$c/data")"
check "dnd: logged held, then missed-dnd" test "$(log_outcomes "$c/data")" = "held missed-dnd"
posted() {  # posted EVENTS: nudge's Notify calls, "actions" or "none" each
  awk -F'\t' '$1=="Notify" && $2=="nudge"{printf "%s ", ($4=="" ? "none" : "actions")}' "$1"
}
echo "dnd: nudge's Notify calls: $(posted "$c/events")"
check "dnd: posted twice, the second time without actions" test "$(posted "$c/events")" = "actions none "
check "dnd: when it ends, Plasma shows the one without buttons (plasma-dnd-after.png)" \
  test "$(wc -l < "$c/popups-after")" = 1
check "dnd: and expires it by itself (reason 1)" \
  bash -c "awk -F'\t' '\$1==\"NotificationClosed\" && \$3==1' '$c/events' | grep -q ."

# 3b. `--wait 0` (posted straight over the bus's socket, without libnotify): under Do Not Disturb
#     reported and logged held, nothing drawn, shown by Plasma once it ends; without it, shown.
c=$work/dnd0
mkdir -p "$c"
/usr/bin/python3 "$work/inhibit.py" > "$c/cookie" 2> "$c/inhibit.err" &
holder=$!
wait_for -t 5 test -s "$c/cookie"
XDG_DATA_HOME=$c/data timeout 30 "$NUDGE" notify demo --wait 0 --json > "$c/out.json" 2> "$c/err"
echo "dnd, --wait 0: exit $?, $(tr -d '\n ' < "$c/out.json")"
sleep 0.5  # a fixed wait on purpose: the test, no popup shows up in the half second after nudge returned
popups > "$c/popups-during"
kill "$holder"
wait_for -t 5 not_inhibited
wait_popup 3
popups > "$c/popups-after"
import -window root "$artifacts/plasma-dnd-wait0.png"
wait_for -t 10 popup_count 0
XDG_DATA_HOME=$c/data timeout 30 "$NUDGE" notify demo --wait 0 --json > "$c/out-shown.json" 2> "$c/err-shown"
wait_popup 3
popups > "$c/popups-shown"
wait_for -t 10 popup_count 0
check "dnd, --wait 0: reported held, logged held, no popup until Do Not Disturb ends" bash -c "
  grep -q '\"outcome\" *: *\"held\"' '$c/out.json' && test ! -s '$c/popups-during' &&
  test \"\$(wc -l < '$c/popups-after')\" = 1"
check "--wait 0 without Do Not Disturb: reported shown and drawn" bash -c "
  grep -q '\"outcome\" *: *\"shown\"' '$c/out-shown.json' && test \"\$(wc -l < '$c/popups-shown')\" = 1"
echo "dnd, --wait 0: logged: $(log_outcomes "$c/data")"
check "dnd, --wait 0: logged held, then shown" test "$(log_outcomes "$c/data")" = "held shown"

# 4. Close reasons. A reminder with buttons is posted with expire_timeout 0: Plasma never expires
#    it (its popup timer is the timeout, none for 0; the default is 5 s); the close button
#    dismisses it (reason 2).
c=$work/close
mkdir -p "$c"
monitor "$c/bus"
XDG_DATA_HOME=$c/data "$NUDGE" notify demo --wait 40 --json > "$c/out.json" 2> "$c/err" &
nudge=$!
wait_for -t 10 popup_count 1
sleep 8  # a fixed wait on purpose: the test, 8 s (past Plasma's default timeout, 5 s) and still there
popups > "$c/popups-later"
cp "$c/bus" "$c/bus-later"
[ -s "$c/popups-later" ] && click_close "$(tail -1 "$c/popups-later")"
finish "$nudge" 10
kill "$monitor_pid"
events "$c/bus" > "$c/events"
check "close: the reminder is posted with expire_timeout 0" \
  test "$(awk -F'\t' '$1=="Notify" && $2=="nudge"{print $5; exit}' "$c/events")" = 0
check "close: Plasma has not expired it 8 s later" bash -c \
  "test -s '$c/popups-later' && ! python3 '$work/events.py' '$c/bus-later' | grep -q '^NotificationClosed'"
check "close: the close button closes it with reason 2 (dismissed)" \
  bash -c "awk -F'\t' '\$1==\"NotificationClosed\" && \$3==2' '$c/events' | grep -q ."
check "close: logged shown, then dismissed" test "$(log_outcomes "$c/data")" = "shown dismissed"
skip "close: expired (reason 1) on a reminder" "Plasma 5.27 never expires a notification posted with expire_timeout 0 (e2e-notify.sh tests it on dunst)"

echo "plasma suite: $(( $(date +%s) - started )) s"

# 6. The tray: `nudge tray` registers its StatusNotifierItem with Plasma's watcher (kded5's), the
#    system tray (plasmashell, the host) draws it; its menu read over D-Bus as the tray reads it;
#    a habit ticked from the menu (seen in `habit list`); a flow chosen opens in the terminal;
#    the watcher killed and started again: the item registers again by itself.
c=$work/tray
mkdir -p "$c"
export XDG_DATA_HOME=$c/data NUDGE_NOW=2026-11-18T07:30:00+01:00
cat > "$c/terminal" <<SH
#!/bin/sh
exec tmux -L "$socket" new-window -t flow -n tray -e XDG_DATA_HOME=$c/data -e TZ=Europe/Berlin \
  -e NUDGE_NOW=2026-11-18T07:31:00+01:00 "\$@"
SH
chmod +x "$c/terminal"
"$NUDGE" habit add Stretch > /dev/null
"$NUDGE" config set terminal "$c/terminal" > /dev/null
"$NUDGE" tray > "$c/tray.out" 2> "$c/tray.err" &
tray_pid=$!
on_exit "kill $tray_pid 2> /dev/null || true"
item="org.kde.StatusNotifierItem-$tray_pid-1"
watcher() {  # watcher PROPERTY
  gdbus call --session --timeout 5 --dest org.kde.StatusNotifierWatcher \
    --object-path /StatusNotifierWatcher --method org.freedesktop.DBus.Properties.Get \
    org.kde.StatusNotifierWatcher "$1" 2>/dev/null
}
registered() { watcher RegisteredStatusNotifierItems | grep -qF "$item"; }
host_registered() { watcher IsStatusNotifierHostRegistered | grep -q true; }
menu_call() {  # menu_call METHOD ARGS…: a call on the item's menu
  local method=$1; shift
  gdbus call --session --timeout 5 --dest "$item" --object-path /MenuBar \
    --method "com.canonical.dbusmenu.$method" -- "$@"
}
item_id() {  # item_id LABEL: the id of the menu item whose label is LABEL
  menu_call GetLayout 0 -1 '[]' | python3 -c "
import re, sys
text = sys.stdin.read()
for m in re.finditer(r\"\((\d+), \{[^}]*'label': <'([^']*)'>\", text):
    if m.group(2) == sys.argv[1]: print(m.group(1)); break" "$1"
}
has_item() { [ -n "$(item_id "$1")" ]; }
menu_lists() {
  menu_call GetLayout 0 -1 '[]' > "$c/layout" && has_item "○ Morning Focus" &&
    has_item "○ Stretch" && has_item "Pause today" && has_item "Open today"
}
stretch_done() { "$NUDGE" habit list --json | json_check - "j[0]['done_today'] is True"; }
refuses_wrong_arguments() {  # sent as it is (gdbus would check it against introspection first)
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" --timeout=5 -- call "$item" /MenuBar \
    com.canonical.dbusmenu GetLayout s x > "$c/wrong.out" 2>&1
  grep -q "wrong arguments" "$c/wrong.out" && menu_call GetLayout 0 -1 '[]' > /dev/null
}
tray_ended() { ! kill -0 "$tray_pid" 2> /dev/null; }
check "tray: Plasma's watcher lists the item" wait_for -t 15 registered
check "tray: a StatusNotifierHost (Plasma's system tray) is registered with the watcher" \
  wait_for -t 10 host_registered
check "tray: its menu lists the flow due, the habit, Pause today and Open today" \
  wait_for -t 5 menu_lists
import -window root "$artifacts/plasma-tray.png"
menu_call Event "$(item_id "○ Stretch")" clicked '<"">' 0 > /dev/null
check "tray: choosing the habit ticks it (habit list says done)" wait_for -t 5 stretch_done
check "tray: the menu then shows it done" wait_for -t 5 has_item "✓ Stretch"
# real clicks on the icon in the panel (found by its colour in the screenshot's panel strip):
# the left one does the first thing left to do (Morning Focus, in the terminal); the right one
# opens the menu Plasma draws from ours
icon_at() {
  import -window root "$c/screen.png" &&
    convert "$c/screen.png" -crop 640x48+640+752 txt:- |
    awk -F'[,: ]+' 'tolower($0) ~ /#e5c07b/ {print $1 + 640, $2 + 752; exit}' | grep .
}
wait_for -t 10 icon_at > /dev/null
read -r ix iy <<< "$(icon_at)"
check "tray: the icon is drawn in Plasma's panel, in the due state's colour (plasma-tray.png)" \
  test -n "${ix:-}"
[ -n "${ix:-}" ] && xdotool mousemove "$ix" "$iy" click 1
check "tray: a left click on the icon opens Morning Focus in the terminal" \
  wait_for -t 10 pane_shows tray "My Why"
windows() { xdotool search --onlyvisible --name '' 2>/dev/null | sort; }
windows > "$c/windows-before"
a_new_window() { windows | comm -13 "$c/windows-before" - | grep -q .; }
[ -n "${ix:-}" ] && xdotool mousemove "$ix" "$iy" click 3
check "tray: a right click opens its menu (plasma-tray-menu.png)" wait_for -t 10 a_new_window
import -window root "$artifacts/plasma-tray-menu.png"
xdotool key Escape
check "tray: a call with wrong arguments is refused, and the tray goes on" refuses_wrong_arguments
kded=$(pgrep -x kded5 | head -1)
kill "$kded"
kded5 > "$work/kded5-again.log" 2>&1 &
check "tray: the watcher restarted, the item registers again by itself" wait_for -t 30 registered
kill -TERM "$tray_pid"
check "tray: it ends on SIGTERM" wait_for -t 5 tray_ended
check "tray: nothing on its stderr but the no-tray note" bash -c "! grep -v 'no tray on this panel' '$c/tray.err' | grep -q ."
unset XDG_DATA_HOME NUDGE_NOW

e2e_done
