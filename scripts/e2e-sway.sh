#!/usr/bin/env bash
# The panel on a second desktop: sway (headless, wlroots' pixman renderer) with waybar, which
# is both a status bar running `nudge status --format waybar --follow` as its custom module and
# a system tray (its own StatusNotifierWatcher and host, drawing menus with libdbusmenu-gtk3).
# What the bar shows is read as a screen reader reads it (AT-SPI: the label's text) and seen in
# a screenshot (grim; the classes' colours); clicks are real pointer clicks (sway's seat
# cursor). Checked: the module's text changing when a habit is ticked from the tray's menu,
# when a flow is saved in a terminal and when another computer's change arrives; the tray's
# icon drawn, its menu drawn by waybar from ours, a left click opening the flow in a terminal;
# waybar killed and started again (the item registers with the new watcher, the old module's
# follower ends). sway refuses root: the desktop runs as a user of its own
# (nudge-e2e, made here). Prints "N passed, N failed"; exits non-zero on failure.
set -uo pipefail
cd "$(dirname "$0")/.."
E2E_USER=nudge-e2e
NUDGE=$(readlink -f "${NUDGE_BIN:-$PWD/.build/debug/nudge}")
artifacts=${ARTIFACTS:-$PWD/artifacts}

if [ "${1:-}" != --inside ]; then
  # As root: the desktop's user, a folder it owns, the binary and this suite where it reads
  # them; then the rest as that user in a session bus of its own.
  for program in sway waybar grim swaymsg tmux; do
    command -v "$program" > /dev/null || { echo "$program is missing: run scripts/install-deps --test"; exit 1; }
  done
  /usr/bin/python3 -c "import pyatspi" 2> /dev/null || { echo "pyatspi is missing: run scripts/install-deps --test"; exit 1; }
  if [ "$(id -u)" = 0 ]; then
    id "$E2E_USER" > /dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$E2E_USER"
    run_as() { runuser -u "$E2E_USER" -- "$@"; }
  else
    run_as() { "$@"; }  # a person's own desktop user runs it as themselves
  fi
  outer=$(mktemp -d /tmp/nudge-sway.XXXXXX)
  trap 'rm -rf "$outer"' EXIT
  chmod 755 "$outer"
  mkdir -p "$outer/suite/scripts/lib" "$outer/bin" "$outer/artifacts"
  cp scripts/e2e-sway.sh "$outer/suite/scripts/"
  cp scripts/lib/e2e.sh scripts/lib/wl-pointer.py "$outer/suite/scripts/lib/"
  cp "$NUDGE" "$outer/bin/nudge"
  mkdir -m 700 "$outer/run"
  [ "$(id -u)" = 0 ] && chown "$E2E_USER" "$outer/run" "$outer/artifacts"
  run_as env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$outer/home" XDG_RUNTIME_DIR="$outer/run" \
    LANG=C.UTF-8 NUDGE_BIN="$outer/bin/nudge" ARTIFACTS="$outer/artifacts" \
    dbus-run-session -- bash "$outer/suite/scripts/e2e-sway.sh" --inside
  status=$?
  mkdir -p "$artifacts"
  cp "$outer"/artifacts/*.png "$artifacts/" 2> /dev/null
  exit $status
fi

# ---- inside: the desktop's user, on a session bus of its own -------------------------------
. scripts/lib/e2e.sh
e2e_init --sweep
# (the shell tmux runs commands with: the desktop user has none of its own)
export HOME=$work/home TZ=Europe/Berlin XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config SHELL=/bin/sh
mkdir -p "$HOME" "$XDG_CONFIG_HOME"
# a fixed now that advances with the clock: the morning, far from 18:00 and the rollover
export NUDGE_NOW=2026-11-20T09:00:00+01:00
on_fail() {
  tail -5 "$work/waybar.log" 2> /dev/null
  cat "$work/tray.err" "$work/terminal.err" 2> /dev/null; tm list-windows -a 2> /dev/null
  shot && cp "$work/screen.png" "$artifacts/waybar-failed.png"
}

# the terminal a click opens: a tmux window, read like a screen
tmux_init
tmux_hold
cat > "$work/terminal" <<SH
#!/bin/sh
exec tmux -L "$E2E_TMUX" new-window -t flow -n opened -e XDG_DATA_HOME=$XDG_DATA_HOME \
  -e XDG_CONFIG_HOME=$XDG_CONFIG_HOME -e TZ=$TZ -e NUDGE_NOW=$NUDGE_NOW "\$@" 2>> "$work/terminal.err"
SH
chmod +x "$work/terminal"
"$NUDGE" config set terminal "$work/terminal" > /dev/null
"$NUDGE" habit add Stretch > /dev/null
mkdir -m 700 "$work/folder"
"$NUDGE" sync init "$work/folder" --name desk > /dev/null

cat > "$work/sway.conf" <<CONF
output HEADLESS-1 resolution 1024x600 position 0 0
seat seat0 hide_cursor 0
CONF
cat > "$work/waybar.json" <<JSON
{
  "layer": "top", "position": "top", "height": 32,
  "modules-left": ["custom/nudge"], "modules-right": ["tray"],
  "custom/nudge": {
    "exec": "$NUDGE status --format waybar --follow",
    "return-type": "json",
    "on-click": "$NUDGE status --open"
  },
  "tray": { "icon-size": 24, "spacing": 8 }
}
JSON
# each state its own colour, as the README's CSS has it
cat > "$work/waybar.css" <<'CSS'
* { font-family: DejaVu Sans; font-size: 14px; border: none; border-radius: 0; }
window#waybar { background: #202020; color: #ffffff; }
#custom-nudge { padding: 0 12px; }
#custom-nudge.due { background: #2050c0; }
#custom-nudge.overdue { background: #c02020; }
#custom-nudge.done { background: #20a040; }
#custom-nudge.paused { background: #808080; }
CSS

WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
  sway -c "$work/sway.conf" > "$work/sway.log" 2>&1 &
sway_pid=$!
on_exit "kill $sway_pid 2> /dev/null || true"
sway_up() { ls "$XDG_RUNTIME_DIR"/wayland-* > /dev/null 2>&1 && ls "$XDG_RUNTIME_DIR"/sway-ipc.*.sock > /dev/null 2>&1; }
check "sway runs headless" wait_for -t 15 sway_up
WAYLAND_DISPLAY=$(basename "$(ls "$XDG_RUNTIME_DIR"/wayland-* | grep -v lock | head -1)")
SWAYSOCK=$(ls "$XDG_RUNTIME_DIR"/sway-ipc.*.sock | head -1)
export WAYLAND_DISPLAY SWAYSOCK

# the pointer: a virtual pointer device of the compositor's (headless sway has none), made
# before waybar starts so waybar binds it; a click is "click X Y left|right", answered "done"
mkfifo "$work/pointer.in"
/usr/bin/python3 scripts/lib/wl-pointer.py 1024 600 < "$work/pointer.in" > "$work/pointer.out" 2>&1 &
pointer_pid=$!
on_exit "kill $pointer_pid 2> /dev/null || true"
trap '' PIPE  # a helper that ended makes a click fail, not the suite end without its cleanup
exec 7> "$work/pointer.in"
pointer_ready() { grep -q ready "$work/pointer.out"; }
check "a pointer device for the headless seat (zwlr_virtual_pointer_v1)" wait_for -t 10 pointer_ready
clicks=0
clicks_taken() { [ "$(grep -c done "$work/pointer.out")" -ge "$clicks" ]; }
click() {  # click X Y left|right: a real pointer click, once the compositor took it
  kill -0 "$pointer_pid" 2> /dev/null || { echo "the pointer helper ended: $(cat "$work/pointer.out")"; return 1; }
  echo "click $1 $2 $3" >&7
  clicks=$((clicks + 1))
  wait_for -t 5 clicks_taken
}

start_waybar() {
  waybar -c "$work/waybar.json" -s "$work/waybar.css" >> "$work/waybar.log" 2>&1 &
  waybar_pid=$!
}
start_waybar
on_exit 'kill $waybar_pid 2> /dev/null || true'

# what a screen reader reads of the bar: the module's label
cat > "$work/label.py" <<'PY'
import sys, pyatspi
def labels(acc, depth=0):
    if acc is None or depth > 12: return
    try:
        if acc.getRoleName() == "label": yield acc.name
        for i in range(acc.childCount): yield from labels(acc.getChildAtIndex(i), depth + 1)
    except Exception: return
for app in pyatspi.Registry.getDesktop(0):
    if app is not None and app.name == "waybar":
        for name in labels(app): print(name)
PY
bar_labels() { timeout 10 /usr/bin/python3 "$work/label.py" 2> /dev/null; }
bar_says() { bar_labels | grep -qxF "$1"; }
# the screen, and the colour at a point of it
shot() { grim "$work/screen.png" 2> /dev/null; }
colour_in_bar() {  # colour_in_bar HEX X0 X1: the colour is somewhere in the bar between X0 and X1
  shot && python3 - "$work/screen.png" "$1" "$2" "$3" <<'PY'
import sys, zlib, struct
path, hexcolour, x0, x1 = sys.argv[1], sys.argv[2].lstrip("#").lower(), int(sys.argv[3]), int(sys.argv[4])
data = open(path, "rb").read()
pos, idat, width, height, ctype = 8, b"", 0, 0, 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8]); chunk = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR": width, height, _, ctype = struct.unpack(">IIBB", chunk[:10])
    if kind == b"IDAT": idat += chunk
    pos += 12 + length
raw = zlib.decompress(idat); bpp = 4 if ctype == 6 else 3; stride = width * bpp
rows, prev = [], bytearray(stride)
for y in range(min(height, 32)):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0; b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
want = bytes.fromhex(hexcolour)
for y, line in enumerate(rows):
    for x in range(max(0, x0), min(width, x1)):
        if bytes(line[x * bpp:x * bpp + 3]) == want: print(x, y); sys.exit(0)
sys.exit(1)
PY
}

# 1. The module.
check "waybar's module shows the line: the review due, one habit left (read by AT-SPI)" \
  wait_for -t 20 bar_says "🔥 0 · Morning Focus · 1 habit left"
check "the module is styled by its class: due" wait_for -t 5 colour_in_bar 2050c0 0 500
follower=$(pgrep -u "$(id -u)" -f "status --format waybar --follow" | head -1)

# 2. The tray: waybar's watcher and host; the icon drawn; the menu drawn by waybar from ours.
"$NUDGE" tray > "$work/tray.out" 2> "$work/tray.err" &
tray_pid=$!
on_exit "kill $tray_pid 2> /dev/null || true"
item="org.kde.StatusNotifierItem-$tray_pid-1"
registered() {
  busctl --user get-property org.kde.StatusNotifierWatcher /StatusNotifierWatcher \
    org.kde.StatusNotifierWatcher RegisteredStatusNotifierItems 2> /dev/null | grep -qF "$item"
}
check "tray: waybar's watcher lists the item" wait_for -t 10 registered
icon_at() { colour_in_bar e5c07b 600 1024; }
check "tray: the icon is drawn in waybar's tray, in the due state's colour" wait_for -t 10 icon_at
cp "$work/screen.png" "$artifacts/waybar.png"
read -r ix iy <<< "$(icon_at)"
cat > "$work/menu.py" <<'PY'
# the menu waybar drew from the item's: its items' names; with a name, that item chosen as a
# screen reader chooses it (its action: GTK activates it, libdbusmenu sends the click to us;
# under Wayland AT-SPI knows no screen position for a pointer)
import sys, pyatspi
def walk(acc, depth=0):
    if acc is None or depth > 14: return
    try:
        if acc.getRoleName() in ("menu item", "check menu item", "radio menu item"): yield acc
        for i in range(acc.childCount): yield from walk(acc.getChildAtIndex(i), depth + 1)
    except Exception: return
for app in pyatspi.Registry.getDesktop(0):
    if app is None or app.name != "waybar": continue
    for item in walk(app):
        if not item.getState().contains(pyatspi.STATE_SHOWING): continue
        if len(sys.argv) == 1:
            print(item.name)
        elif item.name == sys.argv[1]:
            item.queryAction().doAction(0); print("chosen"); sys.exit(0)
sys.exit(len(sys.argv) > 1)
PY
menu_shows() { timeout 10 /usr/bin/python3 "$work/menu.py" 2> /dev/null | grep -qxF "$1"; }
click "${ix:-900}" "${iy:-16}" right
check "tray: a right click makes waybar draw our menu (waybar-menu.png)" \
  wait_for -t 10 menu_shows "Pause today"
check "tray: the menu lists the flow due and the habit" \
  bash -c "timeout 10 /usr/bin/python3 '$work/menu.py' | grep -qxF '○ Morning Focus' && timeout 10 /usr/bin/python3 '$work/menu.py' | grep -qxF '○ Stretch'"
shot && cp "$work/screen.png" "$artifacts/waybar-menu.png"
check "tray: the habit chosen in waybar's menu" timeout 10 /usr/bin/python3 "$work/menu.py" "○ Stretch"
stretch_done() { "$NUDGE" habit list --json | json_check - "j[0]['done_today'] is True"; }
check "tray: choosing the habit in waybar's menu ticks it (habit list says done)" \
  wait_for -t 5 stretch_done
check "the module follows at once: no habit left" wait_for -t 10 bar_says "🔥 0 · Morning Focus"
terminal_shows() { tm capture-pane -p -t flow:opened 2> /dev/null | grep -qF "$1"; }
click "${ix:-900}" "${iy:-16}" left
check "tray: a left click on the icon opens Morning Focus in the terminal" \
  wait_for -t 10 terminal_shows "My Why"
tm kill-window -t flow:opened 2> /dev/null

# 3. A flow saved in a terminal; another computer's habit through the sync folder.
"$NUDGE" review --commit-to walk --no-input --no-animation > /dev/null
check "a flow saved in a terminal: the module says all done" wait_for -t 10 bar_says "🔥 1 · all done"
check "the module is styled by its class: done" wait_for -t 5 colour_in_bar 20a040 0 500
done_icon() { colour_in_bar 98c379 600 1024 > /dev/null; }
check "tray: the icon shows the done state's colour" wait_for -t 5 done_icon
XDG_DATA_HOME=$work/laptop "$NUDGE" sync init "$work/folder" --name laptop > /dev/null
XDG_DATA_HOME=$work/laptop "$NUDGE" habit add Floss > /dev/null
XDG_DATA_HOME=$work/laptop "$NUDGE" sync now > /dev/null
check "another computer's habit arrives through the folder: the module says one habit left" \
  wait_for -t 10 bar_says "🔥 1 · 1 habit left"

# 4. waybar killed and started again: the item registers with the new watcher by itself; the
#    old module's follower ends; the new one shows the line.
kill "$waybar_pid"
follower_gone() { [ -n "$follower" ] && ! kill -0 "$follower" 2> /dev/null; }
# (waybar also sends its modules SIGTERM as it ends; the closed pipe alone is StatusTests')
check "the killed bar's module ends with it" wait_for -t 5 follower_gone
start_waybar
check "waybar restarted: the item registers again by itself" wait_for -t 15 registered
check "waybar restarted: the module shows the line again" wait_for -t 20 bar_says "🔥 1 · 1 habit left"
check "waybar restarted: the icon is drawn again" wait_for -t 10 icon_at
kill -TERM "$tray_pid"
tray_ended() { ! kill -0 "$tray_pid" 2> /dev/null; }
check "tray: it ends on SIGTERM" wait_for -t 5 tray_ended
check "tray: nothing on its stderr" bash -c "! grep -q . '$work/tray.err'"
e2e_done
