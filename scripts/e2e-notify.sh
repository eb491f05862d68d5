#!/usr/bin/env bash
# Desktop notifications end to end, headless but real: Xvfb, a private D-Bus session, the dunst
# notification server, tmux as the terminal a click opens. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/e2e.sh
NUDGE=${NUDGE_BIN:-$PWD/.build/debug/nudge}
e2e_init --sweep
artifacts=${ARTIFACTS:-$PWD/artifacts}
mkdir -p "$artifacts"
xvfb_start
export DISPLAY=$display TZ=Europe/Berlin
tmux_init
socket=$E2E_TMUX

# session NAME ACTION SCRIPT [RULES]: runs SCRIPT inside a new D-Bus session with dunst, clicks
# mapped to ACTION by a dunst rule (and RULES added to dunstrc); SCRIPT sees $NUDGE, $DATA, $CASE
# and scripts/lib/e2e.sh (wait_displayed N…); dunst is its job %1.
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
. "\$E2E_LIB"
dunst_start "$dir/dunstrc"
$script
kill %1 2>/dev/null
CASE
  DATA="$dir/data" CASE="$dir" NUDGE="$NUDGE" SOCKET="$socket" XDG_DATA_HOME="$dir/data" \
    timeout 120 dbus-run-session ${BUS_CONFIG:+--config-file "$BUS_CONFIG"} -- bash "$dir/case.sh" \
    > "$dir/log" 2>&1
}

tmux_hold flow

# 1. The demo reminder is displayed; a screenshot of what a person sees.
session demo default '
"$NUDGE" notify demo --wait 6 --json > "$CASE/out.json" &
wait_displayed 1 && echo displayed=1
import -window root "$CASE/shot.png"
dunstctl close-all
wait %2
"$NUDGE" log --json > "$CASE/log.json"
'
check "demo: dunst displays one notification" grep -q "displayed=1" "$work/demo/log"
check "demo: logged shown, then dismissed" test "$(outcomes "$work/demo/log.json")" = "shown dismissed"
check "demo: logged as the demo, not its slot" json_check "$work/demo/log.json" "[e['slot'] for e in j] == ['demo', 'demo']"
cp "$work/demo/shot.png" "$artifacts/notification-demo.png" 2>/dev/null
check "demo: screenshot taken" test -s "$artifacts/notification-demo.png"

# 1a. On a terminal, the demo says it is waiting for a click and how to stop.
session waiting default '
script -qec "\"$NUDGE\" notify demo --wait 2" /dev/null > "$CASE/pty.out" 2>&1
'
check "demo: on a terminal it says it waits for a click and how to stop" \
  grep -q "Waiting for a click on the reminder (2 s at most; Ctrl-C takes it down)" "$work/waiting/pty.out"

# 1c. --wait 0: posted without buttons, left on the screen, one log entry, back at once.
session nowait default '
start=$(date +%s%N)
NUDGE_NOW=2026-11-23T07:05:00+01:00 "$NUDGE" notify morning --wait 0 > "$CASE/out" 2>&1
echo "status=$? ms=$(( ($(date +%s%N) - start) / 1000000 ))"
ls "$DATA/nudge" > "$CASE/files"
wait_displayed 1  # drawn
sleep 0.5  # a fixed wait on purpose: the test, still on the screen half a second later
echo "displayed=$(dunstctl count displayed)"
"$NUDGE" log --json > "$CASE/log.json"
dunstctl close-all
wait_history 1  # dunst moves the closed notification to its history
dunstctl history > "$CASE/history.json"
'
check "--wait 0: exit 0 in under a second, still displayed afterwards" \
  bash -c "grep -qE 'status=0 ms=[0-9]{1,3}$' '$work/nowait/log' && grep -q 'displayed=1' '$work/nowait/log'"
check "--wait 0: one log entry, shown" test "$(outcomes "$work/nowait/log.json")" = shown
# the database was closed at the end: its WAL folded back and removed (left open, the next
# process read the whole WAL again to rebuild its index)
check "--wait 0: the database closed at exit (no -wal left)" \
  bash -c "grep -q '^nudge.sqlite3$' '$work/nowait/files' && ! grep -q -- '-wal$' '$work/nowait/files'"
check "--wait 0: the body's lines are lines (no escaped line break shown)" python3 -c "
import json, sys
body = json.load(open('$work/nowait/history.json'))['data'][0][0]['body']['data']
sys.exit(0 if body.count(chr(10)) >= 2 and '\\\\u{' not in body and 'Run: nudge review' in body else 1)"

# 1c''. --wait 0 posts straight over the bus's Unix socket, without libnotify: on a bus in the
# abstract namespace too; a bus reached by TCP (which it leaves to libnotify) shows it as well.
# (BUS_CONFIG: session.conf listening elsewhere; over TCP, with anonymous authentication)
sed "s|<listen>.*</listen>|<listen>unix:abstract=$work/abstract-bus</listen>|" \
  /usr/share/dbus-1/session.conf > "$work/abstract.conf"
sed -e "s|<listen>.*</listen>|<listen>tcp:host=127.0.0.1,bind=127.0.0.1,port=0</listen>|" \
  -e "s|<auth>EXTERNAL</auth>|<auth>ANONYMOUS</auth><allow_anonymous/>|" \
  /usr/share/dbus-1/session.conf > "$work/tcp.conf"
for transport in abstract tcp; do
  BUS_CONFIG=$work/$transport.conf session "bus-$transport" default '
echo "address=$DBUS_SESSION_BUS_ADDRESS"
NUDGE_NOW=2026-11-23T07:05:00+01:00 "$NUDGE" notify morning --wait 0 --json > "$CASE/out.json" 2> "$CASE/err"
echo "status=$?"
wait_displayed 1  # drawn (and still there after nudge returned)
echo "displayed=$(dunstctl count displayed)"
'
done
check "--wait 0 on a bus in the abstract namespace: shown (exit 0, displayed)" bash -c "
  grep -q 'address=unix:abstract=' '$work/bus-abstract/log' && grep -q 'status=0' '$work/bus-abstract/log' &&
  grep -q 'displayed=1' '$work/bus-abstract/log' && grep -q '\"shown\"' '$work/bus-abstract/out.json'"
check "--wait 0 on a bus reached by TCP (through libnotify): shown (exit 0, displayed)" bash -c "
  grep -q 'address=tcp:' '$work/bus-tcp/log' && grep -q 'status=0' '$work/bus-tcp/log' &&
  grep -q 'displayed=1' '$work/bus-tcp/log' && grep -q '\"shown\"' '$work/bus-tcp/out.json'"

# 1c'. A slot two plans share posts one reminder: the coach's flow, and the sleep plan's named
# too; once the coach's is done, the sleep plan's in its own words.
session shared default '
"$NUDGE" plan on sleep > /dev/null
NUDGE_NOW=2026-11-23T07:05:00+01:00 "$NUDGE" notify morning --wait 0 > /dev/null
NUDGE_NOW=2026-11-23T07:05:00+01:00 "$NUDGE" review --commit-to walk --no-input --no-animation > /dev/null
NUDGE_NOW=2026-11-23T07:06:00+01:00 "$NUDGE" notify morning --wait 0 > /dev/null
dunstctl close-all
wait_history 2  # dunst moves the two closed notifications to its history
dunstctl history > "$CASE/history.json"
'
check "shared slot: the morning reminder names the sleep flow too, then offers it alone" python3 -c "
import json, sys
notes = json.load(open('$work/shared/history.json'))['data'][0]
seen = sorted((n['id']['data'], n['summary']['data'], n['body']['data']) for n in notes)
ok = len(seen) == 2 and seen[0][1] == 'Review your prep' and 'Also: Your sleep challenge is ready — nudge sleep' in seen[0][2]
ok = ok and seen[1][1] == 'Your sleep challenge is ready' and 'Run: nudge sleep' in seen[1][2] and 'Also:' not in seen[1][2]
sys.exit(0 if ok else 1)"

# 1d. --wait 0 for a flow already done today: nothing posted, one entry, said as it is.
session nowaitdone default '
NUDGE_NOW=2026-11-23T07:05:00+01:00 "$NUDGE" review --commit-to walk --no-input --no-animation > /dev/null
NUDGE_NOW=2026-11-23T07:05:00+01:00 "$NUDGE" notify morning --wait 0 --json > "$CASE/out.json"
sleep 0.5  # a fixed wait on purpose: the test, nothing shows up in the half second after nudge returned
echo "displayed=$(dunstctl count displayed)"
"$NUDGE" log --json > "$CASE/log.json"
'
nowaitdone() {
  grep -q displayed=0 "$work/nowaitdone/log" && json_check "$work/nowaitdone/out.json" "j['outcome'] == 'done-elsewhere'" &&
    test "$(outcomes "$work/nowaitdone/log.json")" = done-elsewhere
}
check "--wait 0, flow done: nothing displayed, logged done-elsewhere once, reported so" nowaitdone

# 1b. doctor sees the server and its actions; install registers the nudge:// handler.
session doctor default '
XDG_CONFIG_HOME="$CASE/config" "$NUDGE" install > /dev/null 2>&1
XDG_CONFIG_HOME="$CASE/config" "$NUDGE" doctor --json > "$CASE/doctor.json"
desktop-file-validate "$DATA/applications/nudge.desktop" && echo desktop-valid=1
'
# doctor_says FILE EXPR: EXPR over c, doctor --json's checks by name
doctor_says() { json_check "$1" "(lambda c: $2)({x['name']: x for x in j})"; }
check "doctor: dunst with actions" doctor_says "$work/doctor/doctor.json" \
  "c['notification server']['ok'] and c['notification server']['detail'].startswith('dunst') and 'actions' in c['notification server']['detail']"
check "doctor: handler registered, database ok" doctor_says "$work/doctor/doctor.json" "c['nudge:// handler']['ok'] and c['database']['ok']"
check "install: the handler passes desktop-file-validate" grep -q "desktop-valid=1" "$work/doctor/log"
check "doctor: starts the chosen terminal once, and it runs" doctor_says "$work/doctor/doctor.json" \
  "c['terminal']['ok'] and 'started it once: it runs here' in c['terminal']['detail']"

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
check "doctor: a terminal that exits 1 at once fails the check, with the reason and a fix" doctor_says "$work/doctorbad/doctor.json" \
  "not c['terminal']['ok'] and 'did not start: broken-term exited 1' in c['terminal']['detail'] and 'nudge config set terminal' in c['terminal']['fix'] and 'status=1' in open('$work/doctorbad/log').read()"

# 2. Clicking "open" on the morning reminder opens Morning Focus in the terminal (tmux), and
#    answering it saves the entry.
XDG_DATA_HOME="$work/open/data" "$NUDGE" config set terminal \
  "tmux -L $socket new-window -t flow -n clicked -e XDG_DATA_HOME=$work/open/data -e TZ=Europe/Berlin -e NUDGE_NOW=2026-11-23T07:01:00+01:00" >/dev/null
session open default '
NUDGE_NOW=2026-11-23T07:00:05+01:00 "$NUDGE" notify morning --scheduled --wait 10 --json > "$CASE/out.json" &
wait_displayed 1 && dunstctl action 0
wait %2
'
tmux_target flow:clicked
tmux_wait_for "My Why"
check "open: the click lands in Morning Focus" grep -q 'Review your prep' "$E2E_SCREEN"
tmux_answer "My Why" energy
tmux_answer "Choose 1-6" 3
tmux_answer "My swap" water
tmux_answer "Today I will" "drink water"
tmux_answer "instead of" soda
tmux_wait_for "Morning Focus saved"
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
NUDGE_NOW=2026-11-22T18:00:05+01:00 "$NUDGE" notify weekly --scheduled --wait 10 --json > "$CASE/out.json" &
wait_displayed 1 && dunstctl action 0
wait %2
dunstctl history > "$CASE/history.json"
'
tmux_target flow:week
tmux_wait_for "Days with a flow"
check "weekly: the Sunday reminder is titled Your week" json_check "$work/week/history.json" \
  "[x['summary']['data'] for x in j['data'][0] if x['appname']['data'] == 'nudge'] == ['Your week']"
check "weekly: a click opens the week in the terminal" grep -q 'Your week · Mon 16 Nov – Sun 22 Nov' "$E2E_SCREEN"
check "weekly: logged clicked" grep -q '"outcome" : "clicked"' "$work/week/out.json"

# 3. "All prepped" on the evening reminder saves the checklist and posts a celebration.
XDG_DATA_HOME="$work/done/data" "$NUDGE" config set terminal \
  "tmux -L $socket new-window -t flow -n replay -e XDG_DATA_HOME=$work/done/data -e TZ=Europe/Berlin" >/dev/null
session done done '
NUDGE_NOW=2026-11-23T21:30:02+01:00 "$NUDGE" notify evening --scheduled --wait 10 --json > "$CASE/out.json" &
wait_displayed 1
# rules apply when a notification arrives: the reminder clicks "done", the celebration after it
# its default action (Replay)
dunstctl rule nudge disable
dunstctl action 0
# the reminder closed (dunst keeps it in its history), the celebration on the screen
celebrated() { [ "$(dunstctl count history)" = 1 ] && dunst_displayed 1; }
wait_for celebrated
dunstctl count displayed > "$CASE/count"
import -window root "$CASE/shot.png"
dunstctl action 0
replayed() { [ "$(dunstctl count history)" = 2 ]; }  # the celebration closed by its click
wait_for replayed
dunstctl history > "$CASE/history.json"
dunstctl close-all
wait %2
'
all_prepped() {  # all_prepped DATA DAY: DAY's prep has all four items
  XDG_DATA_HOME=$1 NUDGE_NOW=${2}T22:00:00+01:00 "$NUDGE" history --json --days 1 |
    json_check - "j[0]['prep'] and all(j[0]['prep'][k] for k in ('sticky_notes', 'produce', 'water', 'breakfast'))"
}
check "done: the evening entry is saved, all four items" all_prepped "$work/done/data" 2026-11-23
check "done: a celebration notification is displayed" grep -qx "1" "$work/done/count"
cp "$work/done/shot.png" "$artifacts/notification-celebration.png" 2>/dev/null
# the Replay button (the celebration's only action) replays the celebration it announced
json_get "$work/done/history.json" \
  "next((n['body']['data'] for n in j['data'][0] if n['appname']['data'] == 'nudge' and n['summary']['data'].startswith('🏆')), '')" \
  > "$work/done/announced"
tmux_target flow:replay
tmux_wait_for "Press Enter" 3
cp "$E2E_SCREEN" "$work/done/replay"
check "replay: the Replay button replays the announced celebration" \
  bash -c "test -s '$work/done/announced' && grep -qF \"\$(cat '$work/done/announced')\" '$work/done/replay'"

# 3b. A habit's Done on its reminder records it with no terminal; a confirmation without buttons
# says so, and goes by itself.
XDG_DATA_HOME="$work/habit/data" NUDGE_NOW=2026-11-23T08:00:00+01:00 \
  "$NUDGE" habit add Stretch --at 21:00 --question "Did you stretch?" > /dev/null
session habit done '
NUDGE_NOW=2026-11-23T21:00:02+01:00 "$NUDGE" notify habit.h1 --scheduled --wait 10 --json > "$CASE/out.json" &
wait_displayed 1
import -window root "$CASE/shot.png"
dunstctl rule nudge disable
dunstctl action 0
confirmed() { [ "$(dunstctl count history)" = 1 ] && dunst_displayed 1; }
wait_for confirmed
import -window root "$CASE/confirmed.png"
wait %2
dunstctl close-all
wait_history 2  # the reminder and the confirmation, both closed, in the history
dunstctl history > "$CASE/history.json"
NUDGE_NOW=2026-11-23T21:01:00+01:00 "$NUDGE" habit list --json > "$CASE/habits.json"
NUDGE_NOW=2026-11-23T21:01:00+01:00 "$NUDGE" log --json > "$CASE/log.json"
'
check "habit: Done on its reminder recorded it (logged shown, then done)" \
  test "$(outcomes "$work/habit/log.json")" = "shown done"
check "habit: it is done today, its streak 1" \
  json_check "$work/habit/habits.json" "j[0]['done_today'] is True and j[0]['streak'] == 1"
check "habit: the reminder was the habit's, then '✓ Done: Stretch' said so" \
  json_check "$work/habit/history.json" \
  "[n['summary']['data'] for n in j['data'][0] if n['appname']['data'] == 'nudge'] == ['✓ Done: Stretch', 'Stretch']"
cp "$work/habit/shot.png" "$artifacts/notification-habit.png" 2>/dev/null
cp "$work/habit/confirmed.png" "$artifacts/notification-habit-done.png" 2>/dev/null

# 3c. A measurable habit's Done opens the terminal at nudge://habit?name=… to ask the amount.
XDG_DATA_HOME="$work/measured/data" "$NUDGE" config set terminal \
  "tmux -L $socket new-window -t flow -n measured -e XDG_DATA_HOME=$work/measured/data -e TZ=Europe/Berlin -e NUDGE_NOW=2026-11-23T21:00:30+01:00" >/dev/null
XDG_DATA_HOME="$work/measured/data" NUDGE_NOW=2026-11-23T08:00:00+01:00 \
  "$NUDGE" habit add "Read more" --target 20 --unit pages --at 21:00 > /dev/null
session measured done '
NUDGE_NOW=2026-11-23T21:00:02+01:00 "$NUDGE" notify habit.h1 --scheduled --wait 10 --json > "$CASE/out.json" &
wait_displayed 1
dunstctl rule nudge disable
dunstctl action 0
wait %2
'
tmux_target flow:measured
tmux_answer "How many pages?" 25
tmux_wait_for "done today: 25 pages" 5
cp "$E2E_SCREEN" "$work/measured/screen"
check "measured: Done opened the terminal, which asked the amount and recorded it" \
  grep -qF "✓ 'Read more' done today: 25 pages" "$work/measured/screen"
check "measured: logged clicked" json_check "$work/measured/out.json" "j['outcome'] == 'clicked'"
check "measured: the amount is today's value" \
  bash -c "XDG_DATA_HOME='$work/measured/data' NUDGE_NOW=2026-11-23T21:05:00+01:00 '$NUDGE' habit list --json | python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)[0][\"value_today\"] == 25 else 1)'"

# 4. Snooze re-posts the reminder.
session snooze snooze '
"$NUDGE" notify evening --wait 4 --snooze-seconds 1 --json > "$CASE/out.json" &
wait_displayed 1 && dunstctl action 0
wait_displayed 0 || true
wait_displayed 1 && echo reposted=1
dunstctl close-all
wait %2
"$NUDGE" log --json > "$CASE/log.json"
'
check "snooze: the reminder is posted again" grep -q "reposted=1" "$work/snooze/log"
check "snooze: logged snoozed then dismissed" test "$(outcomes "$work/snooze/log.json")" = "shown snoozed dismissed"

# 4b. Ctrl-C (SIGINT) and the end of the wait take the reminder off the screen: no dead buttons.
session stopped default '
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
check "both logged withdrawn" test "$(outcomes "$work/stopped/log.json")" = "shown withdrawn shown withdrawn"

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
XDG_DATA_HOME=$work/noserver/data "$NUDGE" log --json > "$work/noserver/log.json"
check "no server: logged undelivered, as the demo (never as a morning or evening reminder)" \
  json_check "$work/noserver/log.json" "[(e['slot'], e['outcome']) for e in j] == [('demo', 'undelivered')]"

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

# 5c. The same with --wait 0 (straight over the socket): the deadline ends the wait for the
#     answers, the reminder is printed and logged undelivered, and the database is closed.
session frozen0 default '
kill -STOP %1
start=$(date +%s%N)
# an evening: the demo is the evening prep reminder, whatever the hour the suite runs at
NUDGE_NOW=2026-11-23T21:00:00+01:00 "$NUDGE" notify demo --wait 0 > "$CASE/out" 2> "$CASE/err"
echo "status=$? ms=$(( ($(date +%s%N) - start) / 1000000 ))"
kill -CONT %1
ls "$DATA/nudge" > "$CASE/files"
"$NUDGE" log --json > "$CASE/log.json"
'
grep -o "status=.*" "$work/frozen0/log"
sed 's/^/  stderr: /' "$work/frozen0/err"
check "frozen server, --wait 0: exit 69 within 3 s" \
  grep -qE 'status=69 ms=([0-9]{1,3}|[12][0-9]{3})$' "$work/frozen0/log"
check "frozen server, --wait 0: the reminder printed" grep -q 'Run: nudge prep' "$work/frozen0/out"
check "frozen server, --wait 0: one line of why, saying the server did not answer" bash -c "
  test \"\$(wc -l < '$work/frozen0/err')\" = 1 && grep -q 'did not answer within 3 seconds' '$work/frozen0/err'"
check "frozen server, --wait 0: logged undelivered" test "$(outcomes "$work/frozen0/log.json")" = undelivered
check "frozen server, --wait 0: the database closed (no -wal left)" \
  bash -c "grep -q '^nudge.sqlite3$' '$work/frozen0/files' && ! grep -q -- '-wal$' '$work/frozen0/files'"

# 8. Do Not Disturb (dunst paused): the reminder is held, not shown; its window ends while still
#    held, so it is replaced by one button-less "missed" notice that dunst shows once unpaused,
#    and the today view says so. Urgency stays normal (nothing gets past the pause).
session dnd default '
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
check "dnd: logged held then missed-dnd (never shown)" test "$(outcomes "$work/dnd/log.json")" = "held missed-dnd"
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
dnd_nowait() { json_check "$work/dndnowait/out.json" "j['outcome'] == 'held'" && test "$(outcomes "$work/dndnowait/log.json")" = held; }
check "dnd, --wait 0: reported and logged held" dnd_nowait

# 8a. Do Not Disturb ends while the reminder waits: held, then shown (it is on the screen now).
session dndoff default '
dunstctl set-paused true
NUDGE_NOW=2026-11-23T07:00:05+01:00 "$NUDGE" notify morning --scheduled --wait 12 --json > "$CASE/out.json" &
held() { [ "$(dunstctl count waiting)" = 1 ]; }
wait_for held
dunstctl set-paused false
# nudge asks every 2 seconds whether Do Not Disturb still holds it, and logs shown
logged_shown() { "$NUDGE" log --json > "$CASE/log-while-up.json" && [ "$(outcomes "$CASE/log-while-up.json")" = "held shown" ]; }
wait_displayed 1 && wait_for -t 2.5 logged_shown
dunstctl close-all
wait %2
"$NUDGE" log --json > "$CASE/log.json"
'
check "dnd ends while it waits: held, shown (within 2 s of the pause ending), dismissed" \
  test "$(outcomes "$work/dndoff/log-while-up.json") / $(outcomes "$work/dndoff/log.json")" = "held shown / held shown dismissed"

# 9. The server's own timeout is not a person's dismissal: a dunst rule on Nudge's category
#    (x-nudge.reminder) expires the reminder after a second: logged expired.
session expired default '
NUDGE_NOW=2026-11-23T07:00:05+01:00 "$NUDGE" notify morning --scheduled --wait 20 --json > "$CASE/out.json"
"$NUDGE" log --json > "$CASE/log.json"
dunstctl history > "$CASE/history.json"
' '[nudge-category]
    category = x-nudge.reminder
    msg_urgency = normal
    override_dbus_timeout = 1'
check "expired: a rule on category x-nudge.reminder and urgency normal expires it; logged shown then expired" \
  test "$(outcomes "$work/expired/log.json")" = "shown expired"
check "expired: dunst's history has it with category x-nudge.reminder" \
  json_check "$work/expired/history.json" "j['data'][0][0]['category']['data'] == 'x-nudge.reminder'"

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
NUDGE_NOW=2026-11-23T07:00:05+01:00 PATH='"$work"'/terms/bin "$NUDGE" notify morning --scheduled --wait 10 --json > "$CASE/out.json" &
wait_displayed 1 && dunstctl action 0
wait %2
echo "status=$?"
"$NUDGE" log --json > "$CASE/log.json"
'
tmux_target flow:fallback
fallback_opened() { tmux_wait_for "Review your prep" 3 && test "$(outcomes "$work/terms/log.json")" = "shown clicked"; }
check "terminal fails: the next one (xterm) opens the flow; logged clicked" fallback_opened
session noterm default '
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
check "no terminal starts: a notice on the desktop; logged clicked then open-failed with the reason" json_check "$work/noterm/log.json" \
  "[e['outcome'] for e in j] == ['shown', 'clicked', 'open-failed'] and j[-1]['detail'] == 'broken-term exited 1' and 'notice=1' in open('$work/noterm/log').read()"

# 6. No session bus at all.
start=$(date +%s%N)
env -u DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR="$work/none" XDG_DATA_HOME="$work/nobus/data" "$NUDGE" notify demo > "$work/nobus.out" 2>&1
status=$?
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
check "no session bus: exit 69 quickly" test "$status" = 69 -a "$elapsed" -lt 3000
# --wait 0 too, and --json stays JSON; no bus is started behind the user's back
env -u DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR="$work/none" XDG_DATA_HOME="$work/nobus/data" "$NUDGE" notify demo --wait 0 --json > "$work/nobus0.out" 2> "$work/nobus0.err"
status=$?
nobus0() { test "$status" = 69 && json_check "$work/nobus0.out" "j['outcome'] == 'undelivered'" && test "$(wc -l < "$work/nobus0.err")" = 1; }
check "no session bus, --wait 0 --json: exit 69, stdout is the JSON report, one line on stderr" nobus0

# 7. libnotify missing (its file hidden in a private mount namespace): one line, the reminder
#    printed, exit 69; commands that post nothing do not load it at all.
unshare -m bash -c "mount --bind /dev/null \$(ldconfig -p | awk '/libnotify.so.4 /{print \$NF; exit}') &&
  XDG_DATA_HOME='$work/nolib/data' '$NUDGE' notify demo > '$work/nolib.out' 2> '$work/nolib.err'
  echo \$? > '$work/nolib.status'
  XDG_DATA_HOME='$work/nolib/data' '$NUDGE' schedule preview '*-*-* 07:00' --count 1 > /dev/null && echo ok > '$work/nolib.preview'"
check "no libnotify: exit 69, the reminder printed, one line saying what to install" bash -c \
  "test \"\$(cat '$work/nolib.status')\" = 69 && grep -q 'Run: nudge' '$work/nolib.out' && test \$(wc -l < '$work/nolib.err') = 1 && grep -q 'apt-get install libnotify4' '$work/nolib.err'"
check "no libnotify: other commands run" test -s "$work/nolib.preview"
# --wait 0 needs no libnotify: it posts over the bus's socket (a dunst session, libnotify hidden)
session nolib0 default '
lib=$(ldconfig -p | awk "/libnotify.so.4 /{print \$NF; exit}")
unshare -m bash -c "mount --bind /dev/null $lib && \"\$NUDGE\" notify demo --wait 0 > \"\$CASE/out\" 2> \"\$CASE/err\"; echo \$? > \"\$CASE/status\""
wait_displayed 1  # drawn (and still there after nudge returned)
echo "displayed=$(dunstctl count displayed)"
'
check "no libnotify, --wait 0: shown all the same (exit 0, displayed, nothing on stderr)" bash -c \
  "test \"\$(cat '$work/nolib0/status')\" = 0 && grep -q 'displayed=1' '$work/nolib0/log' && test ! -s '$work/nolib0/err'"

e2e_done
