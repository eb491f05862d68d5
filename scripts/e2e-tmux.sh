#!/usr/bin/env bash
# Drives every interactive flow in a real terminal (tmux), as a person would, and checks what
# the screen showed and what was saved. Prints "N passed, N failed"; exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/e2e.sh
NUDGE=${NUDGE_BIN:-$PWD/.build/debug/nudge}
e2e_init --sweep
# a home of its own: nothing here may touch the person's own timers or settings
export HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" TZ=Europe/Berlin
mkdir -p "$HOME"
tmux_init
on_fail() { echo "--- screen:"; cat "$E2E_SCREEN"; }

# start [-x W -y H] NOW ARGS…: runs nudge in a fresh tmux pane (100x40) with NUDGE_NOW fixed
start() {
  local size=()
  while [ "$1" = -x ] || [ "$1" = -y ]; do size+=("$1" "$2"); shift 2; done
  local now=$1; shift
  tmux_start "${size[@]}" "env XDG_DATA_HOME='$XDG_DATA_HOME' TZ=$TZ NUDGE_NOW=$now '$NUDGE' $*; echo '[exit '\$?']'; sleep infinity"
}
keys() { tmux_keys "$@"; }
# the flow's nudge has ended (its pane's shell goes on to print [exit N])
flow_ended() { local p; for p in $nudge_pids; do kill -0 "$p" 2> /dev/null && return 1; done; return 0; }
# the breathing timer has counted down at least one second (its "N left" changed)
countdown_ticked() {
  local first now
  tmux_wait_for -E "[0-9]+:[0-9]+ left" || return 1
  first=$(grep -oE "[0-9]+:[0-9]+ left" "$E2E_SCREEN" | tail -1)
  e2e_ticked() { tmux_screen; now=$(grep -oE "[0-9]+:[0-9]+ left" "$E2E_SCREEN" | tail -1); [ -n "$now" ] && [ "$now" != "$first" ]; }
  wait_for -t 3 e2e_ticked
}

# saved PYTHON-EXPR: evaluates EXPR with h = history --json of the days around the flows, read
# at a fixed "now" (the last day the flows touch) so the real date never matters
saved() {
  NUDGE_NOW=2026-11-21T23:00:00+01:00 "$NUDGE" history --json --days 3 > "$work/history.json"
  json_check "$work/history.json" "(lambda h: $1)({d['date']: d for d in j})"
}

# Prep Tonight
start 2026-11-19T21:30:00+01:00 prep
tmux_answer "Sticky notes up?" y
tmux_answer "Produce prepped?" n
tmux_answer "Water ready?" y
tmux_answer "Breakfast/snack prepped?" yes
tmux_answer "Anything else?" "oats soaking"
tmux_wait_for "[exit 0]" || true
check "prep shows the checklist and confirms" grep -q "Prep saved for tomorrow: 3/4 ready" "$E2E_SCREEN"
check "prep: a first run shows no brackets, so no word about them" bash -c "! grep -q 'Enter keeps the answer in brackets' '$E2E_SCREEN'"
check "prep: the other line is said back" grep -q "Also: oats soaking" "$E2E_SCREEN"
check "prep saved what was typed" saved "h['2026-11-19']['prep']['water'] and not h['2026-11-19']['prep']['produce'] and h['2026-11-19']['prep']['other'] == 'oats soaking'"

# Morning Focus
start 2026-11-20T07:05:00+01:00 review
tmux_answer "My Why" "energy for my kids"
tmux_answer "Choose 1-6" 3
tmux_answer "My swap" "sparkling water"
tmux_answer "Today I will" "drink sparkling water"
tmux_answer "instead of" "soda"
tmux_wait_for "[exit 0]" || true
check "review shows last night's prep first" grep -q "Last night you prepped 3/4" "$E2E_SCREEN"
check "review states the commitment" grep -q "Today I will drink sparkling water instead of soda." "$E2E_SCREEN"
check "review saved the focus" saved "h['2026-11-20']['review']['challenge'] == 'sugary-drinks' and h['2026-11-20']['review']['why'] == 'energy for my kids'"

# I need help: stress, breathing timer skipped with Enter
start 2026-11-20T15:00:00+01:00 need-help
tmux_answer "Choose 1-4" 1
tmux_answer "Choose 1-2" 1
countdown_ticked || true
check "breathing timer shows a countdown" grep -qE "Breathe (in|out)|Hold" "$E2E_SCREEN"
tm send-keys -t flow Enter
tmux_answer "A note for later?" "long meeting"
tmux_wait_for "[exit 0]" || true
check "need-help ends with the pattern line" grep -q "first capture this week" "$E2E_SCREEN"
check "need-help saved a tagged note" saved "h['2026-11-20']['help'][0]['category'] == 'stress' and h['2026-11-20']['help'][0]['note'] == 'long meeting'"

# I need help: habit coach
start 2026-11-20T16:00:00+01:00 need-help
tmux_answer "Choose 1-4" habit
tmux_answer "Choose 1-3" 2
tmux_answer "Choose 1-4" 2
tmux_answer "A note for later?" ""
tmux_wait_for "[exit 0]" || true
check "habit coach asks about the trigger" grep -q "time or place trigger" "$E2E_SCREEN"
check "pattern line counts the week" grep -q "1 of your 2 captures this week was habit." "$E2E_SCREEN"

# End-of-day check-in
start 2026-11-20T21:00:00+01:00 checkin
tmux_answer "Did you follow your swap?" y
tmux_answer "How do you feel about it?" "proud"
tmux_answer "Anything that made it hard?" ""
tmux_wait_for "[exit 0]" || true
check "check-in recalls the morning's commitment" grep -q "This morning: Today I will drink sparkling water" "$E2E_SCREEN"
check "check-in saved" saved "h['2026-11-20']['checkin']['followed'] is True and h['2026-11-20']['checkin']['feel'] == 'proud'"

# Ctrl-D at a prompt saves nothing (a day without a Morning Focus: no swap to ask about)
start 2026-11-21T21:00:00+01:00 checkin
tmux_wait_for "How did today go?"
check "check-in without a swap asks how the day went" bash -c "! grep -q 'follow your swap' '$E2E_SCREEN'"
tm send-keys -t flow C-d
tmux_wait_for "[exit" || true
check "Ctrl-D leaves without saving" saved "h['2026-11-21']['checkin'] is None"
check "Ctrl-D leaving exits 1 with one line" grep -qF "[exit 1]" "$E2E_SCREEN"

# "All prepped" without a button: a at the first checklist question marks every item ready
start 2026-11-21T21:30:00+01:00 prep
tmux_answer "Sticky notes up?" a
tmux_answer "Anything else?" ""
tmux_wait_for "[exit 0]" || true
check "prep: a marks all four ready" grep -q "Prep saved for tomorrow: 4/4 ready" "$E2E_SCREEN"

# The flow a click opens (nudge open --hold): it stays until Enter; leaving it offers Snooze
start 2026-11-22T07:05:00+01:00 open --hold nudge://review
tmux_answer "My Why" "calm mornings"
tmux_answer "Choose 1-6" 1
tmux_answer "My swap" "eat breakfast"
tmux_answer "Today I will" "eat breakfast"
tmux_answer "instead of" "skipping it"
tmux_wait_for "Press Enter to close this window" || true
check "hold: the window waits after the flow" grep -q "Press Enter to close this window." "$E2E_SCREEN"
check "hold: the result is still on screen" grep -q "Morning Focus saved" "$E2E_SCREEN"
tm send-keys -t flow Enter
tmux_wait_for "[exit 0]" || true
check "hold: Enter ends it" grep -qF "[exit 0]" "$E2E_SCREEN"
start 2026-11-23T07:05:00+01:00 open --hold nudge://review
tmux_wait_for "My Why"
tm send-keys -t flow C-d
tmux_wait_for "or s and Enter to snooze 15 min" || true
check "hold: leaving the flow offers Snooze" grep -q "or s and Enter to snooze 15 min" "$E2E_SCREEN"
tmux_answer "snooze 15 min" s
tmux_wait_for "[exit 1]" || true
check "hold: s snoozes the morning reminder" grep -q "Snoozed: " "$E2E_SCREEN"
check "hold: the snooze is logged" bash -c "NUDGE_NOW=2026-11-23T07:06:00+01:00 '$NUDGE' log --json | grep -q '\"snoozed\"'"

# Line editing at a prompt: Home/End, Left, Backspace, Up through this flow's answers
start 2026-11-24T21:30:00+01:00 prep
tmux_answer "Sticky notes up?" y
tmux_answer "Produce prepped?" n
tmux_answer "Water ready?" y
tmux_answer "Breakfast/snack prepped?" n
tmux_wait_for "Anything else?"
keys -l "soakingX"
keys BSpace
keys Home
keys -l "oats "
keys End
keys Left Left Left Left Left Left Left
keys -l "well-"
keys Enter
tmux_wait_for "[exit 0]" || true
check "line editing: Home, End, Left and Backspace edit the answer" \
  bash -c "NUDGE_NOW=2026-11-24T23:00:00+01:00 '$NUDGE' history --json --days 1 | grep -q '\"other\" : \"oats well-soaking\"'"
check "line editing: no control character reaches the answer" bash -c "! grep -q 'control character' '$E2E_SCREEN'"
start 2026-11-25T07:05:00+01:00 review
tmux_answer "My Why" "steady energy"
tmux_answer "Choose 1-6" 3
tmux_answer "My swap" "sparkling water"
tmux_wait_for "Today I will"
keys Up
keys Home
keys -l "drink "
keys Enter
tmux_answer "instead of" "soda"
tmux_wait_for "[exit 0]" || true
check "line editing: Up recalls an earlier answer of the flow" \
  grep -q "Today I will drink sparkling water instead of soda." "$E2E_SCREEN"

# Today view in the evening shows the streak and what is left
start 2026-11-20T21:10:00+01:00 ""
tmux_wait_for "[exit 0]" || true
check "today view shows the streak line" grep -q "Streak: 2 days · today done" "$E2E_SCREEN"

# Celebrations in a real terminal: the animation ends in one line and restores the cursor
start 2026-11-20T21:20:00+01:00 celebrate --tier confetti
tmux_wait_for -E "[*•◆▲●~]" || true
check "confetti animates before the final line" grep -qE "[*•◆▲●~]" "$E2E_SCREEN"
tmux_wait_for "[exit 0]" || true
check "the animation leaves one clean line" grep -qE "^🎉 " "$E2E_SCREEN"
check "no confetti is left on the screen" bash -c "! grep -qE '[•◆▲]' '$E2E_SCREEN'"
check "the cursor is visible again" test "$(tm display -p -t flow '#{cursor_flag}')" = 1

start 2026-11-20T21:20:00+01:00 celebrate --tier fireworks
tmux_wait_for -E "[✺·|]" || true  # the fireworks are on the screen
tm send-keys -t flow Enter
tm send-keys -t flow Enter
tmux_wait_for "[exit 0]" || true
check "Enter during the animation leaves no row of sparks" bash -c "! grep -qE '[✺·|]' '$E2E_SCREEN'"
check "Enter during the animation leaves one clean line" grep -qE "^🎆 " "$E2E_SCREEN"

start 2026-11-20T21:20:00+01:00 celebrate --tier fireworks
tmux_wait_for -E "[✺·|]" || true
tm send-keys -t flow C-c
tmux_wait_for "[exit 130]" || true
check "Ctrl-C during the animation exits 130" grep -qF "[exit 130]" "$E2E_SCREEN"
check "Ctrl-C restores the cursor" test "$(tm display -p -t flow '#{cursor_flag}')" = 1

start 2026-11-20T21:20:00+01:00 achievements
tmux_wait_for "[exit 0]" || true
check "achievements lists earned ones with dates" grep -qE "First prep +2026-11-19" "$E2E_SCREEN"

start 2026-11-20T21:20:00+01:00 streak
tmux_wait_for "[exit 0]" || true
check "streak shows the heatmap" grep -qE "Fri .*█" "$E2E_SCREEN"

# ---- A month with Nudge: nothing typed is lost, mistakes undone, your words on screen ----
export XDG_DATA_HOME="$work/month"
month() {  # month NOW PYTHON-EXPR: EXPR over h = history --json of the last 30 days at NOW
  NUDGE_NOW=$1 "$NUDGE" history --json --days 30 > "$work/month.json"
  json_check "$work/month.json" "(lambda h: $2)({d['date']: d for d in j})"
}

# a closed window (SIGHUP) loses nothing: the answers come back as a draft
start 2026-12-01T07:05:00+01:00 review
tmux_answer "My Why" "energy for my kids"
tmux_answer "Choose 1-6" 3
tmux_wait_for "My swap"
nudge_pids=$(tmux_pane_pids)
tm kill-session -t flow
wait_for flow_ended || true  # it saved its draft and ended
check "SIGHUP: nothing saved as a finished focus" month 2026-12-01T08:00:00+01:00 "h['2026-12-01']['review'] is None"
start 2026-12-01T07:10:00+01:00 review
tmux_wait_for "Resume where you left off?" || true
check "SIGHUP: the next run offers the draft" grep -q "You started this earlier (2 answers kept)" "$E2E_SCREEN"
tmux_answer "Resume where you left off?" ""
tmux_answer "My swap" "sparkling water"
tmux_wait_for "Today I will"
check "resumed: the kept answers are shown, not asked again" grep -q "My Why: why does this matter to you? energy for my kids" "$E2E_SCREEN"
check "the commitment is never offered as skippable" bash -c "! grep -q 'Today I will (Enter to skip)' '$E2E_SCREEN'"
tmux_answer "Today I will" "drink sparkling water"
tmux_answer "instead of" "soda"
tmux_wait_for "[exit 0]" || true
check "resumed: the focus is saved with the answers from before the SIGHUP" month 2026-12-01T08:00:00+01:00 "h['2026-12-01']['review']['why'] == 'energy for my kids' and h['2026-12-01']['review']['challenge'] == 'sugary-drinks' and h['2026-12-01']['review']['swap'] == 'sparkling water'"

# Ctrl-C at a question: one line, exit 130, the answers kept
start 2026-12-01T21:00:00+01:00 checkin
tmux_answer "Did you follow your swap?" y
tmux_wait_for "How do you feel about it?"
tm send-keys -t flow C-c
tmux_wait_for "[exit" || true
check "Ctrl-C at a question exits 130" grep -qF "[exit 130]" "$E2E_SCREEN"
check "Ctrl-C says the answer is kept and how to pick it up" grep -q "your answer is kept as a draft: 'nudge checkin' picks up" "$E2E_SCREEN"

# Ctrl-C during the breathing timer keeps the category and the breathing
start 2026-12-01T15:00:00+01:00 need-help
tmux_answer "Choose 1-4" 1
tmux_answer "Choose 1-2" 1
countdown_ticked || true  # a second of breathing done
tm send-keys -t flow C-c
tmux_wait_for "[exit" || true
check "Ctrl-C in the breathing timer exits 130 with the draft kept" grep -q "kept as a draft: 'nudge need-help'" "$E2E_SCREEN"
start 2026-12-01T15:05:00+01:00 need-help
tmux_answer "Resume where you left off?" y
tmux_answer "A note for later?" "standup ran long"
tmux_wait_for "[exit 0]" || true
check "the resumed craving keeps the stopped breathing" month 2026-12-01T23:00:00+01:00 "'stopped early' in h['2026-12-01']['help'][0]['coach'] and h['2026-12-01']['help'][0]['note'] == 'standup ran long'"

# a multi-line paste stays one answer; Backspace takes a whole family emoji
start 2026-12-01T21:30:00+01:00 prep
tmux_answer "Sticky notes up?" y
tmux_answer "Produce prepped?" y
tmux_answer "Water ready?" y
tmux_answer "Breakfast/snack prepped?" y
tmux_wait_for "Anything else?"
printf 'oats soaking\nberries washed\n' > "$work/paste"
tm load-buffer -b pasted "$work/paste"
tm paste-buffer -p -b pasted -t flow
tmux_wait_for "oats soaking berries washed" || true
keys -l "ab👩‍👩‍👧"
keys BSpace
keys -l "c"
keys Enter
tmux_wait_for "[exit 0]" || true
check "a pasted text of two lines is one answer" month 2026-12-01T23:00:00+01:00 "h['2026-12-01']['prep']['other'] == 'oats soaking berries washed abc'"
check "the paste did not spill into another question" bash -c "! grep -q 'Type y or n' '$E2E_SCREEN'"

# a tab inside a bracketed paste is a space between the words, never dropped
start 2026-12-02T21:30:00+01:00 prep
tmux_answer "Sticky notes up?" y
tmux_answer "Produce prepped?" y
tmux_answer "Water ready?" y
tmux_answer "Breakfast/snack prepped?" y
tmux_wait_for "Anything else?"
printf 'oats\tsoaking' > "$work/paste-tab"
tm load-buffer -b tabbed "$work/paste-tab"
tm paste-buffer -p -b tabbed -t flow
tmux_wait_for "oats soaking" || true
keys Enter
tmux_wait_for "[exit 0]" || true
check "a pasted tab is a space between the words" month 2026-12-02T23:00:00+01:00 "h['2026-12-02']['prep']['other'] == 'oats soaking'"

# an answer that arrives with its Enter in one burst (typed ahead) stays on the screen
start 2026-12-03T21:30:00+01:00 prep
tmux_answer "Sticky notes up?" y
tmux_answer "Produce prepped?" y
tmux_answer "Water ready?" y
tmux_answer "Breakfast/snack prepped?" y
tmux_wait_for "Anything else?"
tm send-keys -t flow "oats typed ahead" Enter
tmux_wait_for "[exit 0]" || true
check "an answer typed ahead with its Enter stays on its line" grep -q "Anything else?.*oats typed ahead" "$E2E_SCREEN"

# delete asks, undo brings back, both recompute the streak
for d in 02 03 04 05 06 07 08; do
  NUDGE_NOW=2026-12-${d}T21:30:00+01:00 "$NUDGE" prep --item water=yes --no-input > /dev/null
done
start 2026-12-08T22:00:00+01:00 delete 2026-12-05 prep
tmux_answer "Delete it?" y
tmux_wait_for "[exit 0]" || true
check "delete: asks, then names what it deleted" grep -q "Deleted the prep of Saturday 5 December" "$E2E_SCREEN"
check "delete: the streak is recomputed" grep -q "Streak: 3 days" "$E2E_SCREEN"
check "delete: a lapsed achievement is removed and says so" grep -q "Achievement removed: 7-day streak" "$E2E_SCREEN"
start 2026-12-08T22:01:00+01:00 undo
tmux_wait_for "[exit 0]" || true
check "undo: the deleted prep is back with its streak" grep -q "Streak: 8 days" "$E2E_SCREEN"
check "undo: the achievement is back" grep -q "Achievement back: 7-day streak" "$E2E_SCREEN"

# edit opens the stored answers on the line, to edit (Ctrl-U clears one for a new answer)
start 2026-12-08T22:02:00+01:00 edit 2026-12-01 review
tmux_answer "My Why" ""
tmux_answer "Choose 1-6" ""
tmux_answer "My swap" $'\x15'"lemon water"
tmux_answer "That day I will" ""
tmux_answer "instead of" ""
tmux_wait_for "[exit 0]" || true
check "edit: stored answers are on the line" grep -q "Enter keeps it, '-' clears it) energy for my kids" "$E2E_SCREEN"
check "edit: a new swap makes the commitment's default follow it" grep -q "I will (edit it; Enter keeps it, '-' clears it) choose lemon water" "$E2E_SCREEN"
check "edit: only the changed answer changed" month 2026-12-08T23:00:00+01:00 "h['2026-12-01']['review']['swap'] == 'lemon water' and h['2026-12-01']['review']['why'] == 'energy for my kids'"

# two held freezes carry a streak over two missed days in a row (Duolingo's rule)
for d in $(seq -w 9 22); do
  NUDGE_NOW=2026-12-${d}T21:30:00+01:00 "$NUDGE" prep --item water=yes --no-input > /dev/null
done
start 2026-12-25T09:00:00+01:00 streak
tmux_wait_for "[exit 0]" || true
check "freezes: two missed days frozen, the streak kept" grep -q "Current streak: 22 days" "$E2E_SCREEN"
check "freezes: both freezes used" grep -qE "Freezes held: 0/2" "$E2E_SCREEN"

# show at 60 columns: the day in full, wrapped, never past the edge
NUDGE_NOW=2026-12-01T16:00:00+01:00 "$NUDGE" need-help --category habit --no-input \
  --note "the afternoon slump again with a vending machine right outside the meeting room" > /dev/null
start -x 60 2026-12-02T09:00:00+01:00 show yesterday
tmux_wait_for "[exit 0]" || true
check "show: the commitment in the person's words (the edit's new swap its default)" grep -q "I will choose lemon water instead of soda." "$E2E_SCREEN"
check "show: a long note wraps under its text" grep -qE "^        .*meeting room" "$E2E_SCREEN"
check "show: no line runs past 60 columns" python3 -c "import sys; sys.exit(0 if all(len(l.rstrip()) <= 60 for l in open('$E2E_SCREEN')) else 1)"

# nudge schedule on a terminal: Enter keeps a slot, plain words change one
start 2026-12-02T09:00:00+01:00 schedule
tmux_answer "morning [07:00, on]" ""
tmux_answer "midday [12:30, off]" ""
tmux_answer "evening [21:30, on]" "weekdays 9pm"
tmux_answer "weekly [Sun 18:00, off]" ""
tmux_wait_for "[exit 0]" || true
check "schedule: plain words are said back with systemd's form" grep -q "evening: weekdays at 21:00 — Mon..Fri \*-\*-\* 21:00:00" "$E2E_SCREEN"
check "schedule: the table shows the plain time" grep -qE "^evening +on +weekdays 21:00" "$E2E_SCREEN"
check "schedule: says plainly that nothing will fire them yet" grep -q "Reminders are not installed: nudge install" "$E2E_SCREEN"

# a time that fires more than once a day ('hourly') is asked about; Enter keeps
start 2026-12-02T09:10:00+01:00 schedule set morning hourly
tmux_answer "24 times a day; keep it?" ""
tmux_wait_for "[exit 0]" || true
check "schedule: every hour is asked about, as a time far outside the slot is" \
  grep -qF "*-*-* *:00:00 fires the morning reminder 24 times a day; keep it? [y/N]" "$E2E_SCREEN"
check "schedule: Enter keeps the time there was" grep -q "^Nothing changed." "$E2E_SCREEN"
# one that fires more than once a minute ('*:*:*') is no reminder time: refused, not asked
start 2026-12-02T09:10:30+01:00 schedule set morning "'*:*:*'"
tmux_wait_for "[exit 64]" || true
check "schedule: every second is refused on a terminal too, without a question" \
  grep -q "no reminder time" "$E2E_SCREEN"
check "schedule: nothing saved after Enter" \
  bash -c "NUDGE_NOW=2026-12-02T09:11:00+01:00 '$NUDGE' schedule --json | grep -qF '\"*-*-* 07:00:00\"'"

# Ctrl-D in a narrow window: the message that says the answers are kept wraps to its width
start -x 44 -y 30 2026-12-03T07:05:00+01:00 review
tmux_answer "My Why" "steady energy"
tmux_wait_for "Choose 1-6" || true
tm send-keys -t flow C-d
tmux_wait_for "[exit 1]" || true
# -J joins the lines tmux itself wrapped: only Nudge's own line breaks remain
tmux_screen -J
check "Ctrl-D: the draft message is wrapped to 44 columns" python3 -c "
import sys
lines = [l.rstrip() for l in open('$E2E_SCREEN')]
lines = lines[[i for i, l in enumerate(lines) if l.startswith('nudge: Left the flow')][0]:]
lines = lines[:lines.index('[exit 1]')]
text = ' '.join(l.strip() for l in lines)
sys.exit(0 if len(lines) > 1 and all(len(l) <= 44 for l in lines) and 'kept as a draft' in text and 'nudge review' in text and 'where you left off' in text else 1)"

# edit in a narrow window: the day named once (in the heading), every line wrapped by Nudge
# between words, never inside one ("late-ni" / "ght")
NUDGE_NOW=2026-12-09T08:00:00+01:00 "$NUDGE" review --challenge late-night-snacking --swap "herbal tea" \
  --commit-to "have a cup of herbal tea at nine" --commit-from "late-night snacking" --no-input > /dev/null
NUDGE_NOW=2026-12-09T21:00:00+01:00 "$NUDGE" checkin --followed yes --feel calm --no-input > /dev/null
start -x 40 -y 30 2026-12-11T09:00:00+01:00 edit 2026-12-09 checkin
tmux_wait_for "[Y/n]" || true
tmux_screen -J
check "edit prompt: the day is named once" test "$(grep -o "December" "$E2E_SCREEN" | wc -l)" = 1
check "edit prompt: the morning's commitment without the day again" grep -q "^That morning: I will have a" "$E2E_SCREEN"
check "edit prompt: the question says 'that day'" grep -q "Did you follow your swap that day?" "$E2E_SCREEN"
check "edit prompt: words wrap whole" grep -qw "late-night" "$E2E_SCREEN"
check "edit prompt: no line past 40 columns (Nudge wrapped them, not the terminal)" python3 -c "
import sys
lines = [l.rstrip() for l in open('$E2E_SCREEN')]
sys.exit(0 if any('late-night' in l for l in lines) and all(len(l) <= 40 for l in lines) else 1)"
tmux_answer "[Y/n]" ""
tmux_answer "How do you feel about it?" ""
tmux_answer "Anything that made it hard?" ""
tmux_wait_for "[exit 0]" || true
check "edit prompt: Enter keeps each answer" month 2026-12-11T10:00:00+01:00 "h['2026-12-09']['checkin']['feel'] == 'calm' and h['2026-12-09']['checkin']['followed'] is True"

# the old answer is on the line to edit, as shells do (it was only in brackets: End then
# ", then fine" saved ", then fine"); cleared, Tab brings it back
start 2026-12-11T10:05:00+01:00 edit 2026-12-09 checkin
tmux_answer "[Y/n]" ""
tmux_wait_for "How do you feel about it?" || true
keys End
tm send-keys -t "$E2E_PANE" -l -- ", then fine"
keys Enter
tmux_wait_for "Anything that made it hard?" || true
check "edit prompt: the old answer is on the line, edited in place" grep -q "calm, then fine" "$E2E_SCREEN"
keys C-u Tab Enter
tmux_wait_for "[exit 0]" || true
check "edit prompt: the edited answer is saved whole" month 2026-12-11T10:10:00+01:00 "h['2026-12-09']['checkin']['feel'] == 'calm, then fine'"
start 2026-12-11T10:15:00+01:00 edit 2026-12-09 checkin
tmux_answer "[Y/n]" ""
tmux_wait_for "How do you feel about it?" || true
keys C-u Tab Enter
tmux_answer "Anything that made it hard?" ""
tmux_wait_for "[exit 0]" || true
check "edit prompt: cleared, Tab brings the old answer back" month 2026-12-11T10:20:00+01:00 "h['2026-12-09']['checkin']['feel'] == 'calm, then fine'"

# a sick week after the fact (a home of its own): six done days, three ill, one more done day;
# marking the three as days off, asked on the terminal, lets the streak wait over them
sick=$work/sick-data
for d in 01 02 03 04 05 06 10; do
  XDG_DATA_HOME=$sick NUDGE_NOW=2026-12-${d}T21:30:00+01:00 "$NUDGE" prep --item water=yes --no-input > /dev/null
done
XDG_DATA_HOME=$sick start 2026-12-11T09:00:00+01:00 pause --from 2026-12-07 --until wednesday
tmux_answer "Mark Mon 7 – Wed 9 Dec as days off? Your streak waits over them." ""
tmux_wait_for "[exit 0]" || true
check "sick days: asked, then marked" grep -q "Marked Mon 7 – Wed 9 Dec as days off (3 days)." "$E2E_SCREEN"
check "sick days: the streak waited over them" grep -q "Streak: 7 days (longest 7)." "$E2E_SCREEN"
check "sick days: the 7-day milestone it had missed" grep -q "New achievement: 7-day streak." "$E2E_SCREEN"
check "sick days: stored as a pause of those days" bash -c "XDG_DATA_HOME='$sick' NUDGE_NOW=2026-12-11T09:00:00+01:00 '$NUDGE' export | grep -q '\"last_day\" : \"2026-12-09\"'"
XDG_DATA_HOME=$sick start 2026-12-11T09:05:00+01:00 pause --from 2026-12-08 --for 1d
tmux_answer "Mark Tue 8 Dec as days off?" "n"
tmux_wait_for "[exit 0]" || true
check "sick days: n marks nothing" grep -q "Nothing was marked." "$E2E_SCREEN"

# a draft across days: Ctrl-C in a review, the next evening the today view names it and the
# command it names resumes it
drafts=$work/draft-data
XDG_DATA_HOME=$drafts start 2026-12-14T07:10:00+01:00 review
tmux_answer "My Why" "steady energy"
tmux_wait_for "Choose 1-6" || true
tm send-keys -t flow C-c
tmux_wait_for "[exit 130]" || true
XDG_DATA_HOME=$drafts start 2026-12-15T20:00:00+01:00 today
tmux_wait_for "[exit 0]" || true
check "draft: the next day's today view names yesterday's unfinished review" grep -q "Morning Focus of yesterday left unfinished (1 answer kept)" "$E2E_SCREEN"
check "draft: with the command that resumes it" grep -q "nudge review --day yesterday" "$E2E_SCREEN"
XDG_DATA_HOME=$drafts start 2026-12-15T20:01:00+01:00 review --day yesterday
tmux_answer "Resume where you left off?" ""
tmux_answer "Choose 1-6" 3
tmux_answer "My swap" "tea"
tmux_answer "I will" "drink tea"
tmux_answer "instead of" "soda"
tmux_wait_for "[exit 0]" || true
check "draft: resumed with the kept answer" bash -c "XDG_DATA_HOME='$drafts' NUDGE_NOW=2026-12-15T20:02:00+01:00 '$NUDGE' show 2026-12-14 --json | grep -q 'steady energy'"

# ---- The streak's views: a paused day's mark, a year's heatmap, the entries as a spreadsheet ----
export XDG_DATA_HOME="$work/views"
# a first prep a year back, a week of preps, then three days off from Tuesday the 17th; the
# 20th missed (the week's freeze covers it); "now" is Saturday the 21st
NUDGE_NOW=2025-11-20T21:30:00+01:00 "$NUDGE" prep --item water=yes --no-input > /dev/null
for d in 10 11 12 13 14 15 16; do
  NUDGE_NOW=2026-11-${d}T21:30:00+01:00 "$NUDGE" prep --item water=yes --no-input > /dev/null
done
NUDGE_NOW=2026-11-17T09:00:00+01:00 "$NUDGE" pause --for 3d > /dev/null
start -x 120 2026-11-21T09:00:00+01:00 streak --weeks 53
tmux_wait_for "[exit 0]" || true
check "streak: the ring marks the days off '-', not missed" grep -qF "This week:  █ █ - - - * ○  2/7" "$E2E_SCREEN"
check "streak: the legend names the paused mark" grep -qF -- "· missed  - paused (day off)  ○ today, in progress" "$E2E_SCREEN"
# each weekday's row: its 53 weeks' marks, from the week of Monday 17 November 2025 (the first
# prep a Thursday) to this one, a column a week with a space between them at 120 columns
check "streak --weeks 53: 53 columns, the days off marked in the heatmap" python3 -c "
import sys
rows = {l[3:6]: l[7:] for l in open('$E2E_SCREEN') if l[3:6] in ('Mon','Tue','Wed','Thu','Fri','Sat','Sun') and l[6:7] == ' '}
marks = {d: [r[i] for i in range(0, len(r.rstrip()), 2)] for d, r in rows.items()}
ok = len(rows) == 7 and len(marks['Thu']) == 53 and marks['Thu'][0] == '█' and all(c == ' ' for r in rows.values() for c in r[1:len(r.rstrip()):2])
ok = ok and [marks[d][-1] for d in ('Tue', 'Wed', 'Thu', 'Fri', 'Sat')] == ['-', '-', '-', '*', '○']
ok = ok and marks['Mon'][-1] == '█' and marks['Mon'][-2] == '·'
sys.exit(0 if ok else 1)"
check "streak --weeks 53: labelled from the first week's Monday" grep -qE "^ +17 Nov +15 Dec +12 Jan" "$E2E_SCREEN"
NUDGE_NOW=2026-11-21T09:00:00+01:00 "$NUDGE" streak --json > "$work/streak.json"
check "streak --json lists the days off" json_check "$work/streak.json" "j['paused_days'] == ['2026-11-17', '2026-11-18', '2026-11-19'] and j['frozen'] == ['2026-11-20']"
start 2026-11-21T09:00:00+01:00 streak --weeks 54
tmux_wait_for "[exit 64]" || true
check "streak --weeks 54: one line saying what is allowed, exit 64" grep -qF "nudge: --weeks takes a whole number from 1 to 53 (default 12), not '54'." "$E2E_SCREEN"

# a comma and quotes typed at a prompt, a formula's start typed at another
start 2026-11-21T21:30:00+01:00 prep
tmux_answer "Sticky notes up?" y
tmux_answer "Produce prepped?" n
tmux_answer "Water ready?" y
tmux_answer "Breakfast/snack prepped?" y
tmux_answer "Anything else?" 'oats, "overnight" ones'
tmux_wait_for "[exit 0]" || true
start 2026-11-21T15:00:00+01:00 need-help
tmux_answer "Choose 1-4" 4
tmux_answer "What's happening?" '=1+1 at the office'
tmux_wait_for "[exit 0]" || true
# Nudge takes a typed answer on one line; a note with a line break in it (an older Nudge's, or
# one edited by hand) is put in the database directly
python3 -c "
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
(answers,) = db.execute(\"SELECT answers FROM flow_entry WHERE flow = 'prep' AND day = '2026-11-16'\").fetchone()
answers = json.loads(answers); answers['other'] = 'first line\nsecond line'
db.execute(\"UPDATE flow_entry SET answers = ? WHERE flow = 'prep' AND day = '2026-11-16'\", (json.dumps(answers),))
db.commit()" "$XDG_DATA_HOME/nudge/nudge.sqlite3"
start 2026-11-21T22:00:00+01:00 export --csv -o "$work/entries.csv"
tmux_wait_for "[exit 0]" || true
check "export --csv -o: says where it wrote" grep -qF "Exported to $work/entries.csv." "$E2E_SCREEN"
check "export --csv: read back by python's csv module, what was typed whole" python3 -c "
import csv, sys
raw = open('$work/entries.csv', 'rb').read()
rows = list(csv.DictReader(open('$work/entries.csv', newline='', encoding='utf-8-sig')))
by = {(r['day'], r['flow']): r for r in rows}
ok = raw.startswith(b'\xef\xbb\xbfday,flow,saved_at,') and raw.count(b'\r\n') == len(rows) + 1
ok = ok and len(rows) == 10 and by[('2026-11-21', 'prep')]['other'] == 'oats, \"overnight\" ones'
ok = ok and by[('2026-11-21', 'prep')]['produce'] == 'no' and by[('2026-11-21', 'prep')]['water'] == 'yes'
ok = ok and by[('2026-11-16', 'prep')]['other'] == 'first line\nsecond line'
ok = ok and by[('2026-11-21', 'need-help')]['need-help.note'] == \"'=1+1 at the office\"
ok = ok and by[('2026-11-21', 'need-help')]['category'] == 'other' and by[('2026-11-15', 'prep')]['other'] == ''
sys.exit(0 if ok else 1)"

e2e_done
