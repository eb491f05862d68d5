# scripts/lib/e2e.sh: the one harness of the bash end-to-end suites (scripts/e2e-*.sh). A suite
# sources it (". scripts/lib/e2e.sh") and calls e2e_init; a script it runs in a private session
# (dbus-run-session -- bash CASE) may source it too ($E2E_LIB) for the fixtures and waits.
#
#   check NAME CMD…        runs CMD: "ok   NAME" or "FAIL NAME" (then the suite's on_fail, if it
#                          defines one), counted; skip NAME REASON prints "SKIP NAME: REASON"
#   e2e_done               prints "N passed, N failed" (CI reads that line); fails if one failed
#   e2e_init [--sweep] [TEMPLATE]
#                          $work, a scratch folder (mktemp -d TEMPLATE), and one trap (EXIT; INT,
#                          TERM and HUP exit through it) that runs the on_exit commands, last
#                          first, and removes $work (KEEP=1 keeps it). With --sweep every process
#                          the suite starts carries $E2E_MARK in its environment (and so does
#                          whatever those start: services a bus activates, terminals a click
#                          opens); the end stops exactly those (TERM, then KILL after 3 s).
#   on_exit CMD            a command (a string, eval'd) for the end
#   wait_for [-t SECONDS] CMD…
#                          until CMD succeeds, asked every 0.1 s (5 s at most by default). A suite
#                          waits for the event it means (a prompt, a name on the bus, a
#                          notification drawn, a log entry, a file), never a fixed time: a
#                          `sleep N` is kept only where the time itself is under test, marked
#                          "# a fixed wait on purpose: WHY" on its line (scripts/lint-sleeps)
#   json_get FILE EXPR     prints EXPR over j, the JSON document in FILE (- for stdin)
#   json_check FILE EXPR   succeeds when EXPR over j is true
#   outcomes FILE          the outcomes of a `nudge log --json` document, space-separated
#   xvfb_start [WxHxD]     Xvfb on a free display (Xvfb picks it, -displayfd), once it accepts
#                          connections: sets $display (":N"), exports nothing
#   dbus_start [CONFIG]    a private session bus (dbus-daemon), $DBUS_SESSION_BUS_ADDRESS exported
#   bus_has NAME           NAME has an owner on the session bus
#   wait_bus_name NAME [SECONDS]
#   dunst_start [DUNSTRC]  dunst on the session bus, once it owns org.freedesktop.Notifications;
#                          $dunst_pid
#   dunst_displayed N      dunst displays N notifications; wait_displayed N [SECONDS]
#   dunst_in_history N     dunst's history holds N notifications (closed ones move there, a
#                          moment after the close); wait_history N [SECONDS]
#   the tmux driver, on a server of the suite's own ($E2E_TMUX):
#     tmux_init            starts it, with a session "keep" that lives for the whole run (so
#                          ending a flow's session never stops the server)
#     tm ARGS…             tmux on that server
#     tmux_hold [SESSION]  a session ("flow") that holds the windows a click opens
#                          (tmux new-window -t SESSION), for as long as the suite runs
#     tmux_start [-x W] [-y H] [-t SESSION] COMMAND
#                          COMMAND in a fresh session (default "flow", 100x40); its pane is the
#                          target of what follows ($E2E_PANE; tmux_target TARGET changes it)
#     tmux_screen [-J]     the pane's visible text, into $E2E_SCREEN (and stdout with -)
#     tmux_wait_for [-E] TEXT [SECONDS]
#                          until the pane shows TEXT (-E: an extended regular expression; 5 s)
#     tmux_answer PROMPT TEXT
#                          waits for PROMPT to be asked once more than it was answered in this
#                          pane, then types TEXT and Enter
#     tmux_keys KEYS…      send-keys, then waits until the pane shows their effect (its text or
#                          its cursor changed; 2 s at most)
#     tmux_pane_pids       the processes running in the pane (its shell's children)
E2E_LIB=$(readlink -f "${BASH_SOURCE[0]}")
export E2E_LIB
passed=${passed:-0} failed=${failed:-0}

check() {  # check NAME CONDITION-COMMAND…
  local name=$1; shift
  if "$@"; then
    passed=$((passed + 1)); echo "ok   $name"
  else
    failed=$((failed + 1)); echo "FAIL $name"
    if declare -F on_fail > /dev/null; then on_fail; fi
  fi
  return 0
}

skip() { echo "SKIP $1${2:+: $2}"; }

e2e_done() {
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}

# ---- scratch folder, the end --------------------------------------------------------------
e2e_exits=()
on_exit() { e2e_exits+=("$1"); }

e2e_marked() {  # the processes carrying this suite's mark, but this shell
  # read by bash itself (builtins, no process started): a grep over /proc/*/environ finds its
  # own pipeline, which inherits the mark, and its pids are gone (or reused) a moment later
  [ -n "${E2E_MARK:-}" ] || return 0
  local dir entry entries
  for dir in /proc/[0-9]*; do
    case ${dir#/proc/} in "$$" | "${BASHPID:-$$}") continue ;; esac
    mapfile -d '' -t entries 2> /dev/null < "$dir/environ" || continue
    for entry in "${entries[@]}"; do
      if [ "$entry" = "E2E_MARK=$E2E_MARK" ]; then echo "${dir#/proc/}"; break; fi
    done
  done
}
e2e_none_marked() { [ -z "$(e2e_marked)" ]; }

e2e_cleanup() {
  local i pids
  trap - EXIT INT TERM HUP
  for ((i = ${#e2e_exits[@]} - 1; i >= 0; i--)); do eval "${e2e_exits[i]}" 2> /dev/null || true; done
  if [ -n "${E2E_MARK:-}" ]; then
    # (a kill that finds a process already gone fails: never the end of the cleanup, set -e)
    pids=$(e2e_marked)
    if [ -n "$pids" ]; then kill -TERM $pids 2> /dev/null || true; fi
    wait_for -t 3 e2e_none_marked || true
    pids=$(e2e_marked)
    if [ -n "$pids" ]; then kill -KILL $pids 2> /dev/null || true; fi
  fi
  if [ -n "${work:-}" ] && [ -d "$work" ]; then
    if [ -n "${KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
  fi
  return 0
}

e2e_init() {  # e2e_init [--sweep] [MKTEMP-TEMPLATE]
  if [ "${1:-}" = --sweep ]; then
    # a fresh mark, never the one of a suite that started this one (e2e-package runs
    # e2e-session): each suite stops its own processes only
    E2E_MARK="$$-$RANDOM$RANDOM"
    export E2E_MARK
    shift
  else
    unset E2E_MARK
  fi
  work=$(mktemp -d ${1:+"$1"})
  E2E_SCREEN=$work/screen
  trap 'e2e_status=$?; e2e_cleanup; exit $e2e_status' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  trap 'exit 129' HUP
}

# ---- waiting ------------------------------------------------------------------------------
wait_for() {  # wait_for [-t SECONDS] COMMAND…: until COMMAND succeeds
  local seconds=5 tries
  if [ "$1" = -t ]; then seconds=$2; shift 2; fi
  tries=$(awk -v s="$seconds" 'BEGIN { n = int(s * 10 + 0.5); print (n < 1 ? 1 : n) }')
  for ((; tries > 0; tries--)); do
    "$@" && return 0
    sleep 0.1  # a fixed wait on purpose: the poll interval of every wait, CMD asked again
  done
  "$@"
}

# ---- JSON ---------------------------------------------------------------------------------
json_get() {  # json_get FILE EXPR: prints EXPR, evaluated with j = the document
  python3 -c '
import json, sys
j = json.load(sys.stdin if sys.argv[1] == "-" else open(sys.argv[1]))
v = eval(sys.argv[2])
print(v if isinstance(v, str) else json.dumps(v))' "$1" "$2"
}
json_check() {  # json_check FILE EXPR: succeeds when EXPR (j = the document) is true
  python3 -c '
import json, sys
j = json.load(sys.stdin if sys.argv[1] == "-" else open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2" 2> /dev/null
}
outcomes() {  # outcomes FILE: the outcomes of a `nudge log --json` document, space-separated
  json_get "$1" "' '.join(e['outcome'] for e in j)" 2> /dev/null
}

# ---- X, D-Bus, dunst ----------------------------------------------------------------------
xvfb_start() {  # xvfb_start [WxHxD]: sets $display once the server accepts connections
  local fd_file
  fd_file=$(mktemp "${work:-/tmp}/xvfb-display.XXXXXX")
  Xvfb -displayfd 3 -screen 0 "${1:-1024x768x24}" -nolisten tcp 3> "$fd_file" > /dev/null 2>&1 &
  xvfb_pid=$!
  on_exit "kill $xvfb_pid"
  # Xvfb writes the display's number once it listens
  wait_for -t 30 grep -q . "$fd_file" || { echo "Xvfb did not start" >&2; return 1; }
  display=:$(head -1 "$fd_file")
}

bus_has() {
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner "string:$1" 2> /dev/null | grep -q "boolean true"
}
wait_bus_name() { wait_for -t "${2:-10}" bus_has "$1"; }

dbus_start() {  # dbus_start [CONFIG]: a private session bus
  local address_file
  address_file=$(mktemp "${work:-/tmp}/bus-address.XXXXXX")
  if [ -n "${1:-}" ]; then
    dbus-daemon --config-file="$1" --nofork --nopidfile --print-address=3 3> "$address_file" > /dev/null 2>&1 &
  else
    dbus-daemon --session --nofork --nopidfile --print-address=3 3> "$address_file" > /dev/null 2>&1 &
  fi
  dbus_pid=$!
  on_exit "kill $dbus_pid"
  wait_for -t 10 grep -q . "$address_file" || { echo "dbus-daemon did not start" >&2; return 1; }
  DBUS_SESSION_BUS_ADDRESS=$(head -1 "$address_file")
  export DBUS_SESSION_BUS_ADDRESS
}

dunst_start() {  # dunst_start [DUNSTRC]
  if [ -n "${1:-}" ]; then dunst -config "$1" > /dev/null 2>&1 & else dunst > /dev/null 2>&1 & fi
  dunst_pid=$!
  wait_bus_name org.freedesktop.Notifications 5
}
dunst_displayed() { [ "$(dunstctl count displayed 2> /dev/null)" = "$1" ]; }
wait_displayed() { wait_for -t "${2:-5}" dunst_displayed "$1"; }
dunst_in_history() { [ "$(dunstctl count history 2> /dev/null)" = "$1" ]; }
wait_history() { wait_for -t "${2:-5}" dunst_in_history "$1"; }

# ---- tmux ---------------------------------------------------------------------------------
declare -A e2e_answered=()
tm() { tmux -L "$E2E_TMUX" "$@"; }

tmux_init() {
  # a name no earlier run used (a stale socket of a reused pid makes tmux fail to start)
  E2E_TMUX="nudge-e2e-$$-$RANDOM$RANDOM"
  E2E_PANE=flow
  tm new-session -d -s keep -x 100 -y 40 "sleep infinity"
  # the server's socket file goes too: a killed server leaves it behind
  E2E_TMUX_SOCKET=$(tm display -p -t keep '#{socket_path}')
  on_exit 'tmux -L "$E2E_TMUX" kill-server; rm -f "$E2E_TMUX_SOCKET"'
}

tmux_hold() {  # tmux_hold [SESSION]: a session for the windows a click opens
  tm new-session -d -s "${1:-flow}" -x 100 -y 40 "sleep infinity"
}

tmux_target() {  # tmux_target TARGET: what the tmux_* functions act on from now on
  E2E_PANE=$1
}

tmux_start() {  # tmux_start [-x W] [-y H] [-t SESSION] COMMAND
  local width=100 height=40 session=flow key
  while [ $# -gt 1 ]; do
    case $1 in
      -x) width=$2; shift 2 ;;
      -y) height=$2; shift 2 ;;
      -t) session=$2; shift 2 ;;
      *) break ;;
    esac
  done
  tm kill-session -t "$session" 2> /dev/null || true
  for key in "${!e2e_answered[@]}"; do
    [[ $key == "$session"$'\t'* ]] && unset "e2e_answered[$key]"
  done
  tm new-session -d -s "$session" -x "$width" -y "$height" "$1"
  E2E_PANE=$session
  tmux_wait_for "" || true
}

tmux_screen() {  # tmux_screen [-J] [-]: the visible pane into $E2E_SCREEN (and stdout with -)
  local join=() out=
  while [ $# -gt 0 ]; do
    case $1 in -J) join=(-J) ;; -) out=1 ;; esac
    shift
  done
  tm capture-pane "${join[@]}" -p -t "$E2E_PANE" > "$E2E_SCREEN" 2> /dev/null || return 1
  [ -z "$out" ] || cat "$E2E_SCREEN"
}

tmux_wait_for() {  # tmux_wait_for [-E] TEXT [SECONDS]
  local mode=-F
  if [ "$1" = -E ]; then mode=-E; shift; fi
  e2e_pane_shows() { tmux_screen && grep -q "$mode" -- "$1" "$E2E_SCREEN"; }
  wait_for -t "${2:-5}" e2e_pane_shows "$1"
}

e2e_asked() {  # e2e_asked PROMPT N: PROMPT is on more than N lines of the pane's whole history
  [ "$(tm capture-pane -J -p -S - -t "$E2E_PANE" 2> /dev/null | grep -cF -- "$1")" -gt "$2" ]
}

tmux_answer() {  # tmux_answer PROMPT TEXT
  local key="$E2E_PANE"$'\t'"$1" done
  done=${e2e_answered[$key]:-0}
  wait_for e2e_asked "$1" "$done" || { tmux_screen; echo "prompt not shown: $1"; return 1; }
  e2e_answered[$key]=$((done + 1))
  tm send-keys -t "$E2E_PANE" -l -- "$2"
  tm send-keys -t "$E2E_PANE" Enter
  tmux_screen
}

e2e_pane_state() {
  tm display -p -t "$E2E_PANE" '#{cursor_x},#{cursor_y}' 2> /dev/null
  tm capture-pane -p -t "$E2E_PANE" 2> /dev/null
}

tmux_keys() {  # tmux_keys KEYS…: send-keys, then until the pane shows their effect (2 s)
  local before
  before=$(e2e_pane_state)
  tm send-keys -t "$E2E_PANE" "$@"
  e2e_pane_changed() { [ "$(e2e_pane_state)" != "$before" ]; }
  wait_for -t 2 e2e_pane_changed || true
}

tmux_pane_pids() {  # the processes the pane's shell started
  local shell
  shell=$(tm display -p -t "$E2E_PANE" '#{pane_pid}' 2> /dev/null) || return 0
  pgrep -P "$shell" || true
}
