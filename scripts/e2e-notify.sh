#!/usr/bin/env bash
# Desktop notifications end to end, headless but real: Xvfb, a private D-Bus session, the dunst
# notification server, tmux as the terminal a click opens. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
NUDGE=${NUDGE_BIN:-$PWD/.build/debug/nudge}
work=$(mktemp -d)
artifacts=${ARTIFACTS:-$PWD/artifacts}
mkdir -p "$artifacts"
display=:$((90 + RANDOM % 9))
# a name no earlier run used (a stale socket of a reused pid makes tmux fail to start)
socket="nudge-notify-$$-$RANDOM$RANDOM"
Xvfb "$display" -screen 0 1024x768x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; tmux -L "$socket" kill-server 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
export DISPLAY=$display TZ=Europe/Berlin
sleep 1
passed=0 failed=0
check() {
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"
  else failed=$((failed + 1)); echo "FAIL $name"; fi
}

# session NAME ACTION SCRIPT [RULES]: runs SCRIPT inside a new D-Bus session with dunst, clicks
# mapped to ACTION by a dunst rule (and RULES added to dunstrc); SCRIPT sees $NUDGE, $DATA, $CASE.
session() {
  local name=$1 action=$2 script=$3 rules=${4:-}
  local dir="$work/$name"
  mkdir -p "$dir"
  cat > "$dir/dunstrc" <<RC
[global]
    font = DejaVu Sans Mono 10
    offset = 10x40
[nudge]
    appname = nudge
    action_name = $action
$rules
RC
  cat > "$dir/case.sh" <<CASE
dunst -config "$dir/dunstrc" >/dev/null 2>&1 &
for i in \$(seq 50); do
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications 2>/dev/null | grep -q true && break
  sleep 0.1
done
$script
kill %1 2>/dev/null
CASE
  DATA="$dir/data" CASE="$dir" NUDGE="$NUDGE" SOCKET="$socket" XDG_DATA_HOME="$dir/data" \
    timeout 120 dbus-run-session -- bash "$dir/case.sh" > "$dir/log" 2>&1
}

# wait_displayed N: until dunst shows N notifications (5 s)
cat > "$work/lib.sh" <<'LIB'
wait_displayed() { for i in $(seq 50); do [ "$(dunstctl count displayed)" = "$1" ] && return 0; sleep 0.1; done; return 1; }
LIB

tmux -L "$socket" new-session -d -s flow -x 100 -y 40 "sleep 600"

# 1. The demo reminder is displayed; a screenshot of what a person sees.
session demo default '
. '"$work"'/lib.sh
"$NUDGE" notify demo --wait 6 --json > "$CASE/out.json" &
wait_displayed 1 && echo displayed=1
import -window root "$CASE/shot.png"
dunstctl close-all
wait %2
"$NUDGE" log --json > "$CASE/log.json"
'
check "demo: dunst displays one notification" grep -q "displayed=1" "$work/demo/log"
check "demo: logged as demo, then dismissed" python3 -c "import json,sys; l=json.load(open('$work/demo/log.json')); sys.exit(0 if [e['outcome'] for e in l]==['demo','dismissed'] else 1)"
cp "$work/demo/shot.png" "$artifacts/notification-demo.png" 2>/dev/null
check "demo: screenshot taken" test -s "$artifacts/notification-demo.png"

# 1a. On a terminal, the demo says it is waiting for a click and how to stop.
session waiting default '
. '"$work"'/lib.sh
script -qec "\"$NUDGE\" notify demo --wait 2" /dev/null > "$CASE/pty.out" 2>&1
'
check "demo: on a terminal it says it waits for a click and how to stop" \
  grep -q "Waiting for a click on the reminder (2 s at most; Ctrl-C takes it down)" "$work/waiting/pty.out"

# 1c. --wait 0: posted without buttons, left on the screen, one log entry, back at once.
session nowait default '
. '"$work"'/lib.sh
start=$(date +%s%N)
NUDGE_NOW=2026-11-23T07:05:00+01:00 "$NUDGE" notify morning --wait 0 > "$CASE/out" 2>&1
echo "status=$? ms=$(( ($(date +%s%N) - start) / 1000000 ))"
sleep 0.5
echo "displayed=$(dunstctl count displayed)"
"$NUDGE" log --json > "$CASE/log.json"
'
check "--wait 0: exit 0 in under a second, still displayed afterwards" \
  bash -c "grep -qE 'status=0 ms=[0-9]{1,3}$' '$work/nowait/log' && grep -q 'displayed=1' '$work/nowait/log'"
check "--wait 0: one log entry, shown" python3 -c "import json,sys; l=[e['outcome'] for e in json.load(open('$work/nowait/log.json'))]; sys.exit(0 if l==['shown'] else 1)"

# 1d. --wait 0 for a flow already done today: nothing posted, one entry, said as it is.
session nowaitdone default '
NUDGE_NOW=2026-11-23T07:05:00+01:00 "$NUDGE" review --commit-to walk --no-input --no-animation > /dev/null
NUDGE_NOW=2026-11-23T07:05:00+01:00 "$NUDGE" notify morning --wait 0 --json > "$CASE/out.json"
sleep 0.5
echo "displayed=$(dunstctl count displayed)"
"$NUDGE" log --json > "$CASE/log.json"
'
check "--wait 0, flow done: nothing displayed, logged done-elsewhere once, reported so" bash -c \
  "grep -q displayed=0 '$work/nowaitdone/log' && grep -q '\"outcome\" : \"done-elsewhere\"' '$work/nowaitdone/out.json' && python3 -c \"import json,sys; l=[e['outcome'] for e in json.load(open('$work/nowaitdone/log.json'))]; sys.exit(0 if l==['done-elsewhere'] else 1)\""

# 1b. doctor sees the server and its actions; install registers the nudge:// handler.
session doctor default '
XDG_CONFIG_HOME="$CASE/config" "$NUDGE" install > /dev/null 2>&1
XDG_CONFIG_HOME="$CASE/config" "$NUDGE" doctor --json > "$CASE/doctor.json"
desktop-file-validate "$DATA/applications/nudge.desktop" && echo desktop-valid=1
'
check "doctor: dunst with actions" python3 -c "import json,sys; c={x['name']: x for x in json.load(open('$work/doctor/doctor.json'))}; s=c['notification server']; sys.exit(0 if s['ok'] and s['detail'].startswith('dunst') and 'actions' in s['detail'] else 1)"
check "doctor: handler registered, database ok" python3 -c "import json,sys; c={x['name']: x for x in json.load(open('$work/doctor/doctor.json'))}; sys.exit(0 if c['nudge:// handler']['ok'] and c['database']['ok'] else 1)"
check "install: the handler passes desktop-file-validate" grep -q "desktop-valid=1" "$work/doctor/log"
check "doctor: starts the chosen terminal once, and it runs" python3 -c "import json,sys; c={x['name']: x for x in json.load(open('$work/doctor/doctor.json'))}; t=c['terminal']; sys.exit(0 if t['ok'] and 'started it once: it runs here' in t['detail'] else 1)"

# 1e. doctor with a terminal that cannot start on this session: it says so, with a fix.
mkdir -p "$work/doctorbad/bin"
printf '#!/bin/sh\nexit 1\n' > "$work/doctorbad/bin/broken-term"
chmod +x "$work/doctorbad/bin/broken-term"
# (config set refuses a program that is not on PATH: it is found where the click will look)
PATH="$work/doctorbad/bin:$PATH" XDG_DATA_HOME="$work/doctorbad/data" "$NUDGE" config set terminal "broken-term -e" > /dev/null
session doctorbad default '
PATH='"$work"'/doctorbad/bin:$PATH "$NUDGE" doctor --json > "$CASE/doctor.json"
echo "status=$?"
'
check "doctor: a terminal that exits 1 at once fails the check, with the reason and a fix" python3 -c "import json,sys; c={x['name']: x for x in json.load(open('$work/doctorbad/doctor.json'))}; t=c['terminal']; sys.exit(0 if not t['ok'] and 'did not start: broken-term exited 1' in t['detail'] and 'nudge config set terminal' in t['fix'] and 'status=1' in open('$work/doctorbad/log').read() else 1)"

# 2. Clicking "open" on the morning reminder opens Morning Focus in the terminal (tmux), and
#    answering it saves the entry.
XDG_DATA_HOME="$work/open/data" "$NUDGE" config set terminal \
  "tmux -L $socket new-window -t flow -n clicked -e XDG_DATA_HOME=$work/open/data -e TZ=Europe/Berlin -e NUDGE_NOW=2026-11-23T07:01:00+01:00" >/dev/null
session open default '
. '"$work"'/lib.sh
NUDGE_NOW=2026-11-23T07:00:05+01:00 "$NUDGE" notify morning --scheduled --wait 10 --json > "$CASE/out.json" &
wait_displayed 1 && dunstctl action 0
wait %2
'
sleep 1
pane() { tmux -L "$socket" capture-pane -p -t flow:clicked 2>/dev/null; }
for i in $(seq 50); do pane | grep -q "My Why" && break; sleep 0.1; done
check "open: the click lands in Morning Focus" bash -c "tmux -L $socket capture-pane -p -t flow:clicked | grep -q 'Review your prep'"
for answer in "energy" "3" "water" "drink water" "soda"; do
  tmux -L "$socket" send-keys -t flow:clicked -l -- "$answer"; tmux -L "$socket" send-keys -t flow:clicked Enter; sleep 0.3
done
sleep 1
check "open: logged shown then clicked" grep -q '"outcome" : "clicked"' "$work/open/out.json"
check "open: the answers were saved" bash -c "XDG_DATA_HOME=$work/open/data NUDGE_NOW=2026-11-23T09:00:00+01:00 $NUDGE history --json --days 1 | grep -q '\"swap\" : \"water\"'"

# 2b. The weekly look back (off by default): turned on, its Sunday reminder says "Your week"
#     and a click opens `nudge week` in the terminal.
export XDG_CONFIG_HOME="$work/week/config"  # never the person's own units
XDG_DATA_HOME="$work/week/data" "$NUDGE" config set terminal \
  "tmux -L $socket new-window -t flow -n week -e XDG_DATA_HOME=$work/week/data -e TZ=Europe/Berlin -e NUDGE_NOW=2026-11-22T18:01:00+01:00" >/dev/null
XDG_DATA_HOME="$work/week/data" "$NUDGE" schedule on weekly >/dev/null
unset XDG_CONFIG_HOME
session week default '
. '"$work"'/lib.sh
NUDGE_NOW=2026-11-22T18:00:05+01:00 "$NUDGE" notify weekly --scheduled --wait 10 --json > "$CASE/out.json" &
wait_displayed 1 && dunstctl action 0
wait %2
dunstctl history > "$CASE/history.json"
'
for i in $(seq 50); do tmux -L "$socket" capture-pane -p -t flow:week 2>/dev/null | grep -q "Days with a flow" && break; sleep 0.1; done
check "weekly: the Sunday reminder is titled Your week" python3 -c "import json,sys; n=json.load(open('$work/week/history.json'))['data'][0]; sys.exit(0 if [x['summary']['data'] for x in n if x['appname']['data']=='nudge']==['Your week'] else 1)"
check "weekly: a click opens the week in the terminal" bash -c "tmux -L $socket capture-pane -p -t flow:week | grep -q 'Your week · Mon 16 Nov – Sun 22 Nov'"
check "weekly: logged clicked" grep -q '"outcome" : "clicked"' "$work/week/out.json"

# 3. "All prepped" on the evening reminder saves the checklist and posts a celebration.
XDG_DATA_HOME="$work/done/data" "$NUDGE" config set terminal \
  "tmux -L $socket new-window -t flow -n replay -e XDG_DATA_HOME=$work/done/data -e TZ=Europe/Berlin" >/dev/null
session done done '
. '"$work"'/lib.sh
NUDGE_NOW=2026-11-23T21:30:02+01:00 "$NUDGE" notify evening --scheduled --wait 10 --json > "$CASE/out.json" &
wait_displayed 1
# rules apply when a notification arrives: the reminder clicks "done", the celebration after it
# its default action (Replay)
dunstctl rule nudge disable
dunstctl action 0
sleep 1.5
dunstctl count displayed > "$CASE/count"
import -window root "$CASE/shot.png"
dunstctl action 0
sleep 1
dunstctl history > "$CASE/history.json"
dunstctl close-all
wait %2
'
check "done: the evening entry is saved, all four items" bash -c "XDG_DATA_HOME=$work/done/data NUDGE_NOW=2026-11-23T22:00:00+01:00 $NUDGE history --json --days 1 | python3 -c \"import json,sys; p=json.load(sys.stdin)[0]['prep']; sys.exit(0 if p and all(p[k] for k in ('sticky_notes','produce','water','breakfast')) else 1)\""
check "done: a celebration notification is displayed" grep -qx "1" "$work/done/count"
cp "$work/done/shot.png" "$artifacts/notification-celebration.png" 2>/dev/null
# the Replay button (the celebration's only action) replays the celebration it announced
python3 - "$work/done/history.json" > "$work/done/announced" <<'PY'
import json, sys
for n in json.load(open(sys.argv[1]))["data"][0]:
    if n["appname"]["data"] == "nudge" and n["summary"]["data"].startswith("🏆"):
        print(n["body"]["data"]); break
PY
for i in $(seq 30); do tmux -L "$socket" capture-pane -p -t flow:replay 2>/dev/null | grep -q "Press Enter" && break; sleep 0.1; done
tmux -L "$socket" capture-pane -p -t flow:replay > "$work/done/replay" 2>/dev/null
check "replay: the Replay button replays the announced celebration" \
  bash -c "test -s '$work/done/announced' && grep -qF \"\$(cat '$work/done/announced')\" '$work/done/replay'"

# 4. Snooze re-posts the reminder.
session snooze snooze '
. '"$work"'/lib.sh
"$NUDGE" notify evening --wait 4 --snooze-seconds 1 --json > "$CASE/out.json" &
wait_displayed 1 && dunstctl action 0
sleep 0.5; wait_displayed 0 || true
wait_displayed 1 && echo reposted=1
dunstctl close-all
wait %2
"$NUDGE" log --json > "$CASE/log.json"
'
check "snooze: the reminder is posted again" grep -q "reposted=1" "$work/snooze/log"
check "snooze: logged snoozed then dismissed" python3 -c "import json,sys; l=[e['outcome'] for e in json.load(open('$work/snooze/log.json'))]; sys.exit(0 if l==['shown','snoozed','dismissed'] else 1)"

# 4b. Ctrl-C (SIGINT) and the end of the wait take the reminder off the screen: no dead buttons.
session stopped default '
. '"$work"'/lib.sh
"$NUDGE" notify morning --wait 30 > /dev/null 2>&1 &
wait_displayed 1 && kill -INT %2
wait %2; echo "sigint-status=$?"
wait_displayed 0 && echo sigint-withdrawn=1
"$NUDGE" notify morning --wait 2 > /dev/null 2>&1 &
wait_displayed 1
wait %3
wait_displayed 0 && echo expired-withdrawn=1
"$NUDGE" log --json > "$CASE/log.json"
'
check "SIGINT: the reminder is withdrawn, exit 0" bash -c "grep -q sigint-withdrawn=1 '$work/stopped/log' && grep -q sigint-status=0 '$work/stopped/log'"
check "end of the wait: the reminder is withdrawn" grep -q "expired-withdrawn=1" "$work/stopped/log"
check "both logged withdrawn" python3 -c "import json,sys; l=[e['outcome'] for e in json.load(open('$work/stopped/log.json'))]; sys.exit(0 if l==['shown','withdrawn','shown','withdrawn'] else 1)"

# 5. No notification server: exit 69 within 3 s, the reminder printed.
mkdir -p "$work/noserver/services"
sed "s|<servicedir>.*</servicedir>||; s|<standard_session_servicedirs */>|<servicedir>$work/noserver/services</servicedir>|" \
  /usr/share/dbus-1/session.conf > "$work/noserver/session.conf"
start=$(date +%s%N)
XDG_DATA_HOME="$work/noserver/data" timeout 30 dbus-run-session --config-file="$work/noserver/session.conf" -- \
  "$NUDGE" notify demo > "$work/noserver/out" 2> "$work/noserver/err"
status=$?
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
echo "no server: exit $status after ${elapsed} ms"
check "no server: exit 69" test "$status" = 69
check "no server: returns within 3 s" test "$elapsed" -lt 3000
check "no server: the reminder and its command are printed" grep -q "Run: nudge" "$work/noserver/out"
check "no server: logged undelivered" bash -c "XDG_DATA_HOME=$work/noserver/data $NUDGE log --json | grep -q undelivered"

# 5b. A server that owns the name but never answers (dunst stopped with SIGSTOP).
session frozen default '
kill -STOP %1
start=$(date +%s%N)
"$NUDGE" notify demo > "$CASE/out" 2>&1
echo "status=$? ms=$(( ($(date +%s%N) - start) / 1000000 ))"
kill -CONT %1
'
grep -o "status=.*" "$work/frozen/log"
check "frozen server: exit 69 within 3 s" bash -c "grep -qE 'status=69 ms=([0-9]{1,3}|[12][0-9]{3})$' '$work/frozen/log'"

# 8. Do Not Disturb (dunst paused): the reminder is held, not shown; its window ends while still
#    held, so it is replaced by one button-less "missed" notice that dunst shows once unpaused,
#    and the today view says so. Urgency stays normal (nothing gets past the pause).
session dnd default '
. '"$work"'/lib.sh
dunstctl set-paused true
NUDGE_NOW=2026-11-23T07:00:05+01:00 "$NUDGE" notify morning --scheduled --wait 3 --json > "$CASE/out.json"
echo "waiting=$(dunstctl count waiting) displayed=$(dunstctl count displayed)"
dunstctl set-paused false
wait_displayed 1
echo "after=$(dunstctl count displayed)"
import -window root "$CASE/shot.png"
dunstctl close-all
dunstctl history > "$CASE/history.json"
"$NUDGE" log --json > "$CASE/log.json"
NUDGE_NOW=2026-11-23T08:00:00+01:00 "$NUDGE" today > "$CASE/today.txt"
'
cp "$work/dnd/shot.png" "$artifacts/notification-missed-dnd.png" 2>/dev/null
check "dnd: logged held then missed-dnd (never shown)" python3 -c "import json,sys; l=[e['outcome'] for e in json.load(open('$work/dnd/log.json'))]; sys.exit(0 if l==['held','missed-dnd'] else 1)"
check "dnd: while paused one notification waits and none is displayed" grep -q "waiting=1 displayed=0" "$work/dnd/log"
check "dnd: unpaused, dunst shows one notification: the missed notice, its link in the body" python3 -c "
import json,sys
missed=[n for n in json.load(open('$work/dnd/history.json'))['data'][0] if n['summary']['data']=='Missed: Review your prep']
ok = 'after=1' in open('$work/dnd/log').read() and len(missed) == 1
ok = ok and 'held back by Do Not Disturb' in missed[0]['body']['data'] and 'nudge://review' in missed[0]['body']['data']
sys.exit(0 if ok else 1)"
check "dnd: the today view says the morning reminder was held back" \
  grep -q "This morning's reminder was held back by Do Not Disturb. Run: nudge review" "$work/dnd/today.txt"

# 8b. --wait 0 under Do Not Disturb: nobody waits for it to end; logged held, not shown.
session dndnowait default '
dunstctl set-paused true
NUDGE_NOW=2026-11-23T07:05:00+01:00 "$NUDGE" notify morning --wait 0 --json > "$CASE/out.json"
"$NUDGE" log --json > "$CASE/log.json"
'
check "dnd, --wait 0: reported and logged held" bash -c \
  "grep -q '\"outcome\" : \"held\"' '$work/dndnowait/out.json' && python3 -c \"import json,sys; l=[e['outcome'] for e in json.load(open('$work/dndnowait/log.json'))]; sys.exit(0 if l==['held'] else 1)\""

# 8a. Do Not Disturb ends while the reminder waits: held, then shown (it is on the screen now).
session dndoff default '
. '"$work"'/lib.sh
dunstctl set-paused true
NUDGE_NOW=2026-11-23T07:00:05+01:00 "$NUDGE" notify morning --scheduled --wait 12 --json > "$CASE/out.json" &
sleep 1
dunstctl set-paused false
wait_displayed 1 && sleep 2.5
"$NUDGE" log --json > "$CASE/log-while-up.json"
dunstctl close-all
wait %2
"$NUDGE" log --json > "$CASE/log.json"
'
check "dnd ends while it waits: held, shown (within 2 s of the pause ending), dismissed" python3 -c "
import json,sys
up=[e['outcome'] for e in json.load(open('$work/dndoff/log-while-up.json'))]
l=[e['outcome'] for e in json.load(open('$work/dndoff/log.json'))]
sys.exit(0 if up==['held','shown'] and l==['held','shown','dismissed'] else 1)"

# 9. The server's own timeout is not a person's dismissal: a dunst rule on Nudge's category
#    (x-nudge.reminder) expires the reminder after a second: logged expired.
session expired default '
. '"$work"'/lib.sh
NUDGE_NOW=2026-11-23T07:00:05+01:00 "$NUDGE" notify morning --scheduled --wait 20 --json > "$CASE/out.json"
"$NUDGE" log --json > "$CASE/log.json"
dunstctl history > "$CASE/history.json"
' '[nudge-category]
    category = x-nudge.reminder
    msg_urgency = normal
    override_dbus_timeout = 1'
check "expired: a rule on category x-nudge.reminder and urgency normal expires it; logged shown then expired" python3 -c "import json,sys; l=[e['outcome'] for e in json.load(open('$work/expired/log.json'))]; sys.exit(0 if l==['shown','expired'] else 1)"
check "expired: dunst's history has it with category x-nudge.reminder" python3 -c "
import json,sys
n=json.load(open('$work/expired/history.json'))['data'][0][0]
sys.exit(0 if n['category']['data']=='x-nudge.reminder' else 1)"

# 10. A terminal that cannot start on this session (it exits 1 at once) gives way to the next
#     one; when none starts, the person is told on the desktop and it is logged open-failed.
mkdir -p "$work/terms/bin" "$work/noterm/bin"
printf '#!/bin/sh\necho "cannot open display" >&2\nexit 1\n' > "$work/terms/bin/broken-term"
cp "$work/terms/bin/broken-term" "$work/noterm/bin/broken-term"
cat > "$work/terms/bin/xterm" <<TERM
#!/bin/sh
shift  # -e
exec $(command -v tmux) -L $socket new-window -t flow -n fallback -e XDG_DATA_HOME=$work/terms/data -e TZ=Europe/Berlin -e NUDGE_NOW=2026-11-23T07:01:00+01:00 "\$@"
TERM
chmod +x "$work/terms/bin/broken-term" "$work/terms/bin/xterm" "$work/noterm/bin/broken-term"
PATH="$work/terms/bin:$PATH" XDG_DATA_HOME="$work/terms/data" "$NUDGE" config set terminal "broken-term -e" > /dev/null
PATH="$work/noterm/bin:$PATH" XDG_DATA_HOME="$work/noterm/data" "$NUDGE" config set terminal "broken-term -e" > /dev/null
session terms default '
. '"$work"'/lib.sh
NUDGE_NOW=2026-11-23T07:00:05+01:00 PATH='"$work"'/terms/bin "$NUDGE" notify morning --scheduled --wait 10 --json > "$CASE/out.json" &
wait_displayed 1 && dunstctl action 0
wait %2
echo "status=$?"
"$NUDGE" log --json > "$CASE/log.json"
'
for i in $(seq 30); do tmux -L "$socket" capture-pane -p -t flow:fallback 2>/dev/null | grep -q "Review your prep" && break; sleep 0.1; done
check "terminal fails: the next one (xterm) opens the flow; logged clicked" bash -c \
  "tmux -L $socket capture-pane -p -t flow:fallback | grep -q 'Review your prep' && python3 -c \"import json,sys; l=[e['outcome'] for e in json.load(open('$work/terms/log.json'))]; sys.exit(0 if l==['shown','clicked'] else 1)\""
session noterm default '
. '"$work"'/lib.sh
NUDGE_NOW=2026-11-23T07:00:05+01:00 PATH='"$work"'/noterm/bin "$NUDGE" notify morning --scheduled --wait 10 > "$CASE/out" 2> "$CASE/err" &
wait_displayed 1 && dunstctl action 0
wait %2
echo "status=$?"
wait_displayed 1
echo "notice=$(dunstctl count displayed)"
import -window root "$CASE/shot.png"
"$NUDGE" log --json > "$CASE/log.json"
'
cp "$work/noterm/shot.png" "$artifacts/notification-open-failed.png" 2>/dev/null
check "no terminal starts: exit 69, one line saying which failed and what to do" bash -c \
  "grep -q status=69 '$work/noterm/log' && test \$(wc -l < '$work/noterm/err') = 1 && grep -q 'could not open a terminal (broken-term exited 1)' '$work/noterm/err'"
check "no terminal starts: a notice on the desktop; logged clicked then open-failed with the reason" python3 -c "
import json,sys
l=json.load(open('$work/noterm/log.json'))
ok=[e['outcome'] for e in l]==['shown','clicked','open-failed'] and l[-1]['detail']=='broken-term exited 1'
sys.exit(0 if ok and 'notice=1' in open('$work/noterm/log').read() else 1)"

# 6. No session bus at all.
start=$(date +%s%N)
env -u DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR="$work/none" XDG_DATA_HOME="$work/nobus/data" "$NUDGE" notify demo > "$work/nobus.out" 2>&1
status=$?
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
check "no session bus: exit 69 quickly" test "$status" = 69 -a "$elapsed" -lt 3000
# --wait 0 too, and --json stays JSON; no bus is started behind the user's back
env -u DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR="$work/none" XDG_DATA_HOME="$work/nobus/data" "$NUDGE" notify demo --wait 0 --json > "$work/nobus0.out" 2> "$work/nobus0.err"
status=$?
check "no session bus, --wait 0 --json: exit 69, stdout is the JSON report, one line on stderr" bash -c \
  "test $status = 69 && python3 -c \"import json; assert json.load(open('$work/nobus0.out'))['outcome'] == 'undelivered'\" && test \$(wc -l < '$work/nobus0.err') = 1"

# 7. libnotify missing (its file hidden in a private mount namespace): one line, the reminder
#    printed, exit 69; commands that post nothing do not load it at all.
unshare -m bash -c "mount --bind /dev/null \$(ldconfig -p | awk '/libnotify.so.4 /{print \$NF; exit}') &&
  XDG_DATA_HOME='$work/nolib/data' '$NUDGE' notify demo > '$work/nolib.out' 2> '$work/nolib.err'
  echo \$? > '$work/nolib.status'
  XDG_DATA_HOME='$work/nolib/data' '$NUDGE' schedule preview '*-*-* 07:00' --count 1 > /dev/null && echo ok > '$work/nolib.preview'"
check "no libnotify: exit 69, the reminder printed, one line saying what to install" bash -c \
  "test \"\$(cat '$work/nolib.status')\" = 69 && grep -q 'Run: nudge' '$work/nolib.out' && test \$(wc -l < '$work/nolib.err') = 1 && grep -q 'apt-get install libnotify4' '$work/nolib.err'"
check "no libnotify: other commands run" test -s "$work/nolib.preview"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
