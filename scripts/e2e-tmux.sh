#!/usr/bin/env bash
# Drives every interactive flow in a real terminal (tmux), as a person would, and checks what
# the screen showed and what was saved. Prints "N passed, N failed"; exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
NUDGE=${NUDGE_BIN:-$PWD/.build/debug/nudge}
work=$(mktemp -d)
# a name no earlier run used (a stale socket of a reused pid makes tmux fail to start)
socket="nudge-e2e-$$-$RANDOM$RANDOM"
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
# a home of its own: nothing here may touch the person's own timers or settings
export HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" TZ=Europe/Berlin
mkdir -p "$HOME"
# a session that lives for the whole run, so killing the flow's session never stops the server
# (a new session asked of a server on its way out fails: "server exited unexpectedly")
tmux -L "$socket" new-session -d -s keep "sleep 3600"
passed=0 failed=0

check() {  # check NAME CONDITION-COMMAND…
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"
  else failed=$((failed + 1)); echo "FAIL $name"; echo "--- screen:"; cat "$work/screen"; fi
}

# start NOW ARGS…: runs nudge in a fresh 100x40 tmux pane with NUDGE_NOW fixed
start() {
  local now=$1; shift
  tmux -L "$socket" kill-session -t flow 2>/dev/null || true
  local command="env XDG_DATA_HOME='$XDG_DATA_HOME' TZ=$TZ NUDGE_NOW=$now '$NUDGE' $*; echo '[exit '\$?']'; sleep 600"
  tmux -L "$socket" new-session -d -s flow -x 100 -y 40 "$command"
  wait_for ""
}

screen() { tmux -L "$socket" capture-pane -p -t flow > "$work/screen"; }

# wait_for TEXT: until the pane shows TEXT (5 s at most)
wait_for() {
  for _ in $(seq 50); do
    screen
    grep -qF -- "$1" "$work/screen" && return 0
    sleep 0.1
  done
  return 1
}

# answer PROMPT TEXT: waits for the prompt, then types the answer and Enter
answer() {
  wait_for "$1" || { echo "prompt not shown: $1"; return 1; }
  tmux -L "$socket" send-keys -t flow -l -- "$2"
  tmux -L "$socket" send-keys -t flow Enter
  sleep 0.15
}

# saved PYTHON-EXPR: evaluates EXPR with h = history --json of the days around the flows, read
# at a fixed "now" (the last day the flows touch) so the real date never matters
saved() {
  NUDGE_NOW=2026-11-21T23:00:00+01:00 "$NUDGE" history --json --days 3 > "$work/history.json"
  python3 -c "import json,sys; h={d['date']: d for d in json.load(open('$work/history.json'))}; sys.exit(0 if ($1) else 1)"
}

# Prep Tonight
start 2026-11-19T21:30:00+01:00 prep
answer "Sticky notes up?" y
answer "Produce prepped?" n
answer "Water ready?" y
answer "Breakfast/snack prepped?" yes
answer "Anything else?" "oats soaking"
wait_for "[exit 0]" || true
check "prep shows the checklist and confirms" grep -q "Prep saved for tomorrow: 3/4 ready" "$work/screen"
check "prep: a first run shows no brackets, so no word about them" bash -c "! grep -q 'Enter keeps the answer in brackets' '$work/screen'"
check "prep: the other line is said back" grep -q "Also: oats soaking" "$work/screen"
check "prep saved what was typed" saved "h['2026-11-19']['prep']['water'] and not h['2026-11-19']['prep']['produce'] and h['2026-11-19']['prep']['other'] == 'oats soaking'"

# Morning Focus
start 2026-11-20T07:05:00+01:00 review
answer "My Why" "energy for my kids"
answer "Choose 1-6" 3
answer "My swap" "sparkling water"
answer "Today I will" "drink sparkling water"
answer "instead of" "soda"
wait_for "[exit 0]" || true
check "review shows last night's prep first" grep -q "Last night you prepped 3/4" "$work/screen"
check "review states the commitment" grep -q "Today I will drink sparkling water instead of soda." "$work/screen"
check "review saved the focus" saved "h['2026-11-20']['review']['challenge'] == 'sugary-drinks' and h['2026-11-20']['review']['why'] == 'energy for my kids'"

# I need help: stress, breathing timer skipped with Enter
start 2026-11-20T15:00:00+01:00 need-help
answer "Choose 1-4" 1
answer "Choose 1-2" 1
wait_for "left" && sleep 1.2
screen
check "breathing timer shows a countdown" grep -qE "Breathe (in|out)|Hold" "$work/screen"
tmux -L "$socket" send-keys -t flow Enter
answer "A note for later?" "long meeting"
wait_for "[exit 0]" || true
check "need-help ends with the pattern line" grep -q "first capture this week" "$work/screen"
check "need-help saved a tagged note" saved "h['2026-11-20']['help'][0]['category'] == 'stress' and h['2026-11-20']['help'][0]['note'] == 'long meeting'"

# I need help: habit coach
start 2026-11-20T16:00:00+01:00 need-help
answer "Choose 1-4" habit
answer "Choose 1-3" 2
answer "Choose 1-4" 2
answer "A note for later?" ""
wait_for "[exit 0]" || true
check "habit coach asks about the trigger" grep -q "time or place trigger" "$work/screen"
check "pattern line counts the week" grep -q "1 of your 2 captures this week was habit." "$work/screen"

# End-of-day check-in
start 2026-11-20T21:00:00+01:00 checkin
answer "Did you follow your swap?" y
answer "How do you feel about it?" "proud"
answer "Anything that made it hard?" ""
wait_for "[exit 0]" || true
check "check-in recalls the morning's commitment" grep -q "This morning: Today I will drink sparkling water" "$work/screen"
check "check-in saved" saved "h['2026-11-20']['checkin']['followed'] is True and h['2026-11-20']['checkin']['feel'] == 'proud'"

# Ctrl-D at a prompt saves nothing (a day without a Morning Focus: no swap to ask about)
start 2026-11-21T21:00:00+01:00 checkin
wait_for "How did today go?"
check "check-in without a swap asks how the day went" bash -c "! grep -q 'follow your swap' '$work/screen'"
tmux -L "$socket" send-keys -t flow C-d
wait_for "[exit" || true
check "Ctrl-D leaves without saving" saved "h['2026-11-21']['checkin'] is None"
check "Ctrl-D leaving exits 1 with one line" grep -qF "[exit 1]" "$work/screen"

# "All prepped" without a button: a at the first checklist question marks every item ready
start 2026-11-21T21:30:00+01:00 prep
answer "Sticky notes up?" a
answer "Anything else?" ""
wait_for "[exit 0]" || true
check "prep: a marks all four ready" grep -q "Prep saved for tomorrow: 4/4 ready" "$work/screen"

# The flow a click opens (nudge open --hold): it stays until Enter; leaving it offers Snooze
start 2026-11-22T07:05:00+01:00 open --hold nudge://review
answer "My Why" "calm mornings"
answer "Choose 1-6" 1
answer "My swap" "eat breakfast"
answer "Today I will" "eat breakfast"
answer "instead of" "skipping it"
wait_for "Press Enter to close this window" || true
check "hold: the window waits after the flow" grep -q "Press Enter to close this window." "$work/screen"
check "hold: the result is still on screen" grep -q "Morning Focus saved" "$work/screen"
tmux -L "$socket" send-keys -t flow Enter
wait_for "[exit 0]" || true
check "hold: Enter ends it" grep -qF "[exit 0]" "$work/screen"
start 2026-11-23T07:05:00+01:00 open --hold nudge://review
wait_for "My Why"
tmux -L "$socket" send-keys -t flow C-d
wait_for "or s and Enter to snooze 15 min" || true
check "hold: leaving the flow offers Snooze" grep -q "or s and Enter to snooze 15 min" "$work/screen"
answer "snooze 15 min" s
wait_for "[exit 1]" || true
check "hold: s snoozes the morning reminder" grep -q "Snoozed: " "$work/screen"
check "hold: the snooze is logged" bash -c "NUDGE_NOW=2026-11-23T07:06:00+01:00 '$NUDGE' log --json | grep -q '\"snoozed\"'"

# Line editing at a prompt: Home/End, Left, Backspace, Up through this flow's answers
start 2026-11-24T21:30:00+01:00 prep
answer "Sticky notes up?" y
answer "Produce prepped?" n
answer "Water ready?" y
answer "Breakfast/snack prepped?" n
wait_for "Anything else?"
keys() { tmux -L "$socket" send-keys -t flow "$@"; sleep 0.1; }
keys -l "soakingX"
keys BSpace
keys Home
keys -l "oats "
keys End
keys Left Left Left Left Left Left Left
keys -l "well-"
keys Enter
wait_for "[exit 0]" || true
check "line editing: Home, End, Left and Backspace edit the answer" \
  bash -c "NUDGE_NOW=2026-11-24T23:00:00+01:00 '$NUDGE' history --json --days 1 | grep -q '\"other\" : \"oats well-soaking\"'"
check "line editing: no control character reaches the answer" bash -c "! grep -q 'control character' '$work/screen'"
start 2026-11-25T07:05:00+01:00 review
answer "My Why" "steady energy"
answer "Choose 1-6" 3
answer "My swap" "sparkling water"
wait_for "Today I will"
keys Up
keys Home
keys -l "drink "
keys Enter
answer "instead of" "soda"
wait_for "[exit 0]" || true
check "line editing: Up recalls an earlier answer of the flow" \
  grep -q "Today I will drink sparkling water instead of soda." "$work/screen"

# Today view in the evening shows the streak and what is left
start 2026-11-20T21:10:00+01:00 ""
wait_for "[exit 0]" || true
check "today view shows the streak line" grep -q "Streak: 2 days · today done" "$work/screen"

# Celebrations in a real terminal: the animation ends in one line and restores the cursor
start 2026-11-20T21:20:00+01:00 celebrate --tier confetti
sleep 0.4; screen
check "confetti animates before the final line" grep -qE "[*•◆▲●~]" "$work/screen"
wait_for "[exit 0]" || true
check "the animation leaves one clean line" grep -qE "^🎉 " "$work/screen"
check "no confetti is left on the screen" bash -c "! grep -qE '[•◆▲]' '$work/screen'"
check "the cursor is visible again" test "$(tmux -L "$socket" display -p -t flow '#{cursor_flag}')" = 1

start 2026-11-20T21:20:00+01:00 celebrate --tier fireworks
sleep 0.3
tmux -L "$socket" send-keys -t flow Enter
tmux -L "$socket" send-keys -t flow Enter
wait_for "[exit 0]" || true
check "Enter during the animation leaves no row of sparks" bash -c "! grep -qE '[✺·|]' '$work/screen'"
check "Enter during the animation leaves one clean line" grep -qE "^🎆 " "$work/screen"

start 2026-11-20T21:20:00+01:00 celebrate --tier fireworks
sleep 0.4
tmux -L "$socket" send-keys -t flow C-c
wait_for "[exit 130]" || true
check "Ctrl-C during the animation exits 130" grep -qF "[exit 130]" "$work/screen"
check "Ctrl-C restores the cursor" test "$(tmux -L "$socket" display -p -t flow '#{cursor_flag}')" = 1

start 2026-11-20T21:20:00+01:00 achievements
wait_for "[exit 0]" || true
check "achievements lists earned ones with dates" grep -qE "First prep +2026-11-19" "$work/screen"

start 2026-11-20T21:20:00+01:00 streak
wait_for "[exit 0]" || true
check "streak shows the heatmap" grep -qE "Fri .*█" "$work/screen"

# ---- A month with Nudge: nothing typed is lost, mistakes undone, your words on screen ----
export XDG_DATA_HOME="$work/month"
month() {  # month NOW PYTHON-EXPR: EXPR over h = history --json of the last 30 days at NOW
  NUDGE_NOW=$1 "$NUDGE" history --json --days 30 > "$work/month.json"
  python3 -c "import json,sys; h={d['date']: d for d in json.load(open('$work/month.json'))}; sys.exit(0 if ($2) else 1)"
}

# a closed window (SIGHUP) loses nothing: the answers come back as a draft
start 2026-12-01T07:05:00+01:00 review
answer "My Why" "energy for my kids"
answer "Choose 1-6" 3
wait_for "My swap"
tmux -L "$socket" kill-session -t flow
sleep 0.5
check "SIGHUP: nothing saved as a finished focus" month 2026-12-01T08:00:00+01:00 "h['2026-12-01']['review'] is None"
start 2026-12-01T07:10:00+01:00 review
wait_for "Resume where you left off?" || true
check "SIGHUP: the next run offers the draft" grep -q "You started this earlier (2 answers kept)" "$work/screen"
answer "Resume where you left off?" ""
answer "My swap" "sparkling water"
wait_for "Today I will"
check "resumed: the kept answers are shown, not asked again" grep -q "My Why: why does this matter to you? energy for my kids" "$work/screen"
check "the commitment is never offered as skippable" bash -c "! grep -q 'Today I will (Enter to skip)' '$work/screen'"
answer "Today I will" "drink sparkling water"
answer "instead of" "soda"
wait_for "[exit 0]" || true
check "resumed: the focus is saved with the answers from before the SIGHUP" month 2026-12-01T08:00:00+01:00 "h['2026-12-01']['review']['why'] == 'energy for my kids' and h['2026-12-01']['review']['challenge'] == 'sugary-drinks' and h['2026-12-01']['review']['swap'] == 'sparkling water'"

# Ctrl-C at a question: one line, exit 130, the answers kept
start 2026-12-01T21:00:00+01:00 checkin
answer "Did you follow your swap?" y
wait_for "How do you feel about it?"
tmux -L "$socket" send-keys -t flow C-c
wait_for "[exit" || true
check "Ctrl-C at a question exits 130" grep -qF "[exit 130]" "$work/screen"
check "Ctrl-C says the answer is kept and how to pick it up" grep -q "your answer is kept as a draft: 'nudge checkin' picks up" "$work/screen"

# Ctrl-C during the breathing timer keeps the category and the breathing
start 2026-12-01T15:00:00+01:00 need-help
answer "Choose 1-4" 1
answer "Choose 1-2" 1
wait_for "left" && sleep 1.2
tmux -L "$socket" send-keys -t flow C-c
wait_for "[exit" || true
check "Ctrl-C in the breathing timer exits 130 with the draft kept" grep -q "kept as a draft: 'nudge need-help'" "$work/screen"
start 2026-12-01T15:05:00+01:00 need-help
answer "Resume where you left off?" y
answer "A note for later?" "standup ran long"
wait_for "[exit 0]" || true
check "the resumed craving keeps the stopped breathing" month 2026-12-01T23:00:00+01:00 "'stopped early' in h['2026-12-01']['help'][0]['coach'] and h['2026-12-01']['help'][0]['note'] == 'standup ran long'"

# a multi-line paste stays one answer; Backspace takes a whole family emoji
start 2026-12-01T21:30:00+01:00 prep
answer "Sticky notes up?" y
answer "Produce prepped?" y
answer "Water ready?" y
answer "Breakfast/snack prepped?" y
wait_for "Anything else?"
printf 'oats soaking\nberries washed\n' > "$work/paste"
tmux -L "$socket" load-buffer -b pasted "$work/paste"
tmux -L "$socket" paste-buffer -p -b pasted -t flow
sleep 0.3
keys -l "ab👩‍👩‍👧"
keys BSpace
keys -l "c"
keys Enter
wait_for "[exit 0]" || true
check "a pasted text of two lines is one answer" month 2026-12-01T23:00:00+01:00 "h['2026-12-01']['prep']['other'] == 'oats soaking berries washed abc'"
check "the paste did not spill into another question" bash -c "! grep -q 'Type y or n' '$work/screen'"

# delete asks, undo brings back, both recompute the streak
for d in 02 03 04 05 06 07 08; do
  NUDGE_NOW=2026-12-${d}T21:30:00+01:00 "$NUDGE" prep --item water=yes --no-input > /dev/null
done
start 2026-12-08T22:00:00+01:00 delete 2026-12-05 prep
answer "Delete it?" y
wait_for "[exit 0]" || true
check "delete: asks, then names what it deleted" grep -q "Deleted the prep of Saturday 5 December" "$work/screen"
check "delete: the streak is recomputed" grep -q "Streak: 3 days" "$work/screen"
check "delete: a lapsed achievement is removed and says so" grep -q "Achievement removed: 7-day streak" "$work/screen"
start 2026-12-08T22:01:00+01:00 undo
wait_for "[exit 0]" || true
check "undo: the deleted prep is back with its streak" grep -q "Streak: 8 days" "$work/screen"
check "undo: the achievement is back" grep -q "Achievement back: 7-day streak" "$work/screen"

# edit opens the stored answers as defaults
start 2026-12-08T22:02:00+01:00 edit 2026-12-01 review
answer "My Why" ""
answer "Choose 1-6" ""
answer "My swap" "lemon water"
answer "On Tuesday 1 December I will" ""
answer "instead of" ""
wait_for "[exit 0]" || true
check "edit: stored answers are the defaults" grep -q "\[energy for my kids\]" "$work/screen"
check "edit: only the changed answer changed" month 2026-12-08T23:00:00+01:00 "h['2026-12-01']['review']['swap'] == 'lemon water' and h['2026-12-01']['review']['why'] == 'energy for my kids'"

# two held freezes carry a streak over two missed days in a row (Duolingo's rule)
for d in $(seq -w 9 22); do
  NUDGE_NOW=2026-12-${d}T21:30:00+01:00 "$NUDGE" prep --item water=yes --no-input > /dev/null
done
start 2026-12-25T09:00:00+01:00 streak
wait_for "[exit 0]" || true
check "freezes: two missed days frozen, the streak kept" grep -q "Current streak: 22 days" "$work/screen"
check "freezes: both freezes used" grep -qE "Freezes held: 0/2" "$work/screen"

# show at 60 columns: the day in full, wrapped, never past the edge
NUDGE_NOW=2026-12-01T16:00:00+01:00 "$NUDGE" need-help --category habit --no-input \
  --note "the afternoon slump again with a vending machine right outside the meeting room" > /dev/null
tmux -L "$socket" kill-session -t flow 2>/dev/null || true
tmux -L "$socket" new-session -d -s flow -x 60 -y 40 \
  "env XDG_DATA_HOME='$XDG_DATA_HOME' TZ=$TZ NUDGE_NOW=2026-12-02T09:00:00+01:00 '$NUDGE' show yesterday; echo '[exit '\$?']'; sleep 600"
wait_for "[exit 0]" || true
check "show: the commitment in the person's words" grep -q "I will drink sparkling water instead of soda." "$work/screen"
check "show: a long note wraps under its text" grep -qE "^        .*meeting room" "$work/screen"
check "show: no line runs past 60 columns" python3 -c "import sys; sys.exit(0 if all(len(l.rstrip()) <= 60 for l in open('$work/screen')) else 1)"

# nudge schedule on a terminal: Enter keeps a slot, plain words change one
start 2026-12-02T09:00:00+01:00 schedule
answer "morning [07:00, on]" ""
answer "midday [12:30, off]" ""
answer "evening [21:30, on]" "weekdays 9pm"
answer "weekly [Sun 18:00, off]" ""
wait_for "[exit 0]" || true
check "schedule: plain words are said back with systemd's form" grep -q "evening: weekdays at 21:00 — Mon..Fri \*-\*-\* 21:00:00" "$work/screen"
check "schedule: the table shows the plain time" grep -qE "^evening +on +weekdays 21:00" "$work/screen"
check "schedule: says plainly that nothing will fire them yet" grep -q "Reminders are not installed: nudge install" "$work/screen"

# Ctrl-D in a narrow window: the message that says the answers are kept wraps to its width
tmux -L "$socket" kill-session -t flow 2>/dev/null || true
tmux -L "$socket" new-session -d -s flow -x 44 -y 30 \
  "env XDG_DATA_HOME='$XDG_DATA_HOME' TZ=$TZ NUDGE_NOW=2026-12-03T07:05:00+01:00 '$NUDGE' review; echo '[exit '\$?']'; sleep 600"
answer "My Why" "steady energy"
wait_for "Choose 1-6" || true
tmux -L "$socket" send-keys -t flow C-d
wait_for "[exit 1]" || true
# -J joins the lines tmux itself wrapped: only Nudge's own line breaks remain
tmux -L "$socket" capture-pane -J -p -t flow > "$work/screen"
check "Ctrl-D: the draft message is wrapped to 44 columns" python3 -c "
import sys
lines = [l.rstrip() for l in open('$work/screen')]
lines = lines[[i for i, l in enumerate(lines) if l.startswith('nudge: Left the flow')][0]:]
lines = lines[:lines.index('[exit 1]')]
text = ' '.join(l.strip() for l in lines)
sys.exit(0 if len(lines) > 1 and all(len(l) <= 44 for l in lines) and 'kept as a draft' in text and 'nudge review' in text and 'where you left off' in text else 1)"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
