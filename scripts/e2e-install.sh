#!/usr/bin/env bash
# scripts/install into a temporary prefix and home, as a new user would run it: the binary, the
# man page, the completions, and units that point at the installed binary. Prints "N passed,
# N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/e2e.sh
e2e_init
prefix="$work/prefix with space"
mkdir -p "$work/home"
env -u XDG_RUNTIME_DIR -u XDG_CONFIG_HOME -u XDG_DATA_HOME -u DBUS_SESSION_BUS_ADDRESS \
  HOME="$work/home" scripts/install --prefix "$prefix" > "$work/out" 2>&1
status=$?
check "install: finishes (no user manager here)" test "$status" = 0
check "install: the binary runs and says its name and version" bash -c "'$prefix/bin/nudge' --version | grep -qx 'nudge [0-9.]*'"
check "install: a man page in share/man/man1" grep -q '^\.Dt NUDGE 1' "$prefix/share/man/man1/nudge.1"
check "install: the man page documents the commands" grep -q 'need-help' "$prefix/share/man/man1/nudge.1"
check "install: the man page lists the built-in plans' flows among the commands (from plans/)" \
  bash -c "grep -q '^\.It Em sleep ' '$prefix/share/man/man1/nudge.1' && grep -q '^\.It Em challenge ' '$prefix/share/man/man1/nudge.1'"
check "install: bash completion" grep -q "first-prep" "$prefix/share/bash-completion/completions/nudge"
check "install: zsh completion" grep -q "#compdef nudge" "$prefix/share/zsh/site-functions/_nudge"
check "install: fish completion" grep -q "^complete -c 'nudge'" "$prefix/share/fish/vendor_completions.d/nudge.fish"
check "install: the units run the installed binary" \
  grep -qF "ExecStart=\"$prefix/bin/nudge\" notify %i --scheduled" "$work/home/.config/systemd/user/nudge-notify@.service"
check "install: the nudge:// handler runs the installed binary" \
  grep -qF "Exec=\"$prefix/bin/nudge\" open %u" "$work/home/.local/share/applications/nudge.desktop"
check "install: the icon is in the hicolor theme" test -s "$work/home/.local/share/icons/hicolor/scalable/apps/nudge.svg"

# the man page as man and groff read it: the sections a Linux user looks for, no warnings
man1="$prefix/share/man/man1/nudge.1"
check "man: the sections a reader looks for, in mdoc's order" test "$(grep '^\.Sh' "$man1" | tr '\n' '|')" = \
  '.Sh NAME|.Sh SYNOPSIS|.Sh DESCRIPTION|.Sh COMMANDS|.Sh ENVIRONMENT|.Sh FILES|.Sh "PLAN FILES"|.Sh "EXIT STATUS"|.Sh EXAMPLES|.Sh "SEE ALSO"|'
# the plan file format is in the page an installed user has (a flow's help points there)
check "man: PLAN FILES says the format (tables, kinds, limits)" bash -c "sed -n '/^\.Sh \"PLAN FILES\"/,/^\.Sh/p' '$man1' | grep -q 'format = 1' && sed -n '/^\.Sh \"PLAN FILES\"/,/^\.Sh/p' '$man1' | grep -q 'several-of'"
# every code the binary can exit with (its ExitStatus cases), and 0
codes=$(sed -n '/^public enum ExitStatus/,/^}/s/^ *case [^=]*= *\([0-9]*\).*/\1/p' Sources/NudgeCLI/App/CLIError.swift | tr '\n' ' ')
check "man: every exit code explained ($(echo 0 $codes))" bash -c "test -n '$codes' && for c in 0 $codes; do grep -qx \".It \$c\" '$man1' || exit 1; done"
check "man: every variable in ENVIRONMENT" bash -c "for v in NUDGE_DB NUDGE_NOW NUDGE_SEED NO_COLOR TERMINAL; do grep -qx \".It Ev \$v\" '$man1' || exit 1; done"
check "man: SEE ALSO systemd.time(7) and systemd.timer(5)" \
  bash -c "sed -n '/^\.Sh \"SEE ALSO\"/,\$p' '$man1' | grep -qE '^\.Xr systemd\.time 7( ,)?\$' && sed -n '/^\.Sh \"SEE ALSO\"/,\$p' '$man1' | grep -qE '^\.Xr systemd\.timer 5( ,)?\$'"
check "man: --version said once" test "$(grep -c 'Show the version' "$man1")" = 1
check "man --warnings: silent at 80 columns" bash -c "test -z \"\$(MANWIDTH=80 man --warnings -l '$man1' 2>&1 >/dev/null)\""
check "groff -ww -z: silent" bash -c "test -z \"\$(groff -ww -z -mandoc '$man1' 2>&1)\""
# the page as a reader sees it (issue 33): a Linux header, the ellipses kept, values named,
# no text said four times
MANWIDTH=100 man -l "$man1" > "$work/man.txt" 2>/dev/null
check "man (rendered): 'User Commands' over the page, not 'BSD General Commands Manual'" \
  bash -c "head -1 '$work/man.txt' | grep -q 'User Commands' && ! grep -q 'BSD' '$work/man.txt'"
check "man (rendered): its foot names Nudge and its version" bash -c "tail -1 '$work/man.txt' | grep -q 'Nudge [0-9]'"
check "man (rendered): the ellipses are there ('Today I will ...')" grep -qF '"Today I will ...".' "$work/man.txt"
# (export's -o takes its "file" name from main's ExportImport.swift: add output here once merged)
check "man (rendered): no option shows its own name as its value (--why why)" \
  bash -c "! grep -qE -- '--(why|other|note|feel|blocker|swap|commit-to|commit-from|challenge-other|item|until|for|wait|server-wait|limit|count|from|tz|replay|ago|days|breathing-seconds) \\1\$' '$work/man.txt'"
check "man (rendered): the staleness windows' values said once" \
  test "$(grep -c 'after which a late reminder is skipped' "$work/man.txt")" = 1

# completions, by running them in each shell as installed: setting values and files to import
mkdir -p "$work/files/exports" && touch "$work/files/backup.json" "$work/files/notes.txt"
export PATH="$prefix/bin:$PATH"
bash_complete() {  # WORDS...: what bash offers for the last word
  (cd "$work/files" && bash -c '. /usr/share/bash-completion/bash_completion
    . "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _nudge nudge "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$prefix/share/bash-completion/completions/nudge" "$@" | sort | tr '\n' ' ')
}
check "bash: config set celebrations offers on and off" test "$(bash_complete nudge config set celebrations '')" = "off on "
check "bash: config set snooze 1 offers the durations from 1" test "$(bash_complete nudge config set snooze 1)" = "10m 15m 1h "
check "bash: import offers JSON files and folders" test "$(bash_complete nudge import '')" = "backup.json exports "
# the flows plans add complete beside the commands: the sleep plan's, and one of a plan file
# dropped in after the completions were installed (the script asks nudge each time)
mkdir -p "$work/home/.config/nudge/plans"
awk '/^```toml/{f=1;next} /^```/{if(f){exit}} f' README.md > "$work/home/.config/nudge/plans/walking.plan"
flow_complete() {  # WORDS...: what bash offers, through the function nudge's script registers
  (cd "$work/files" && HOME="$work/home" bash -c '. /usr/share/bash-completion/bash_completion
    . "$1"; shift; f=$(complete -p nudge | sed -n "s/.* -F \([^ ]*\) .*/\1/p")
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    "$f" nudge "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$prefix/share/bash-completion/completions/nudge" "$@" | sort | tr '\n' ' ')
}
check "bash: a plan's flows complete beside the commands (sleep, and walk of a plan file)" \
  bash -c 'for w in sleep challenge walk schedule; do grep -qw -- "$w" <<< "$1" || exit 1; done' _ "$(flow_complete nudge '')"
check "bash: 'nudge wa' completes to walk" test "$(flow_complete nudge wa)" = "walk "
check "bash: no flow word after a command (what argument-parser offers, nothing more)" test "$(flow_complete nudge history sl)" = "$(bash_complete nudge history sl)"
# zsh and fish complete only in an interactive shell: a real one in tmux, Tab typed twice
tmux_init
cleared() { tmux_screen && ! grep -q NUDGE-READY "$E2E_SCREEN"; }
# shell_tab NAME COMMAND SETUP TEXT EXPECTED: the screen after typing TEXT and Tab twice in a new
# shell, once it shows EXPECTED (an extended regular expression; 5 s at most)
shell_tab() {
  tmux_start -x 120 -y 30 -t "$1" "cd '$work/files' && exec env -i HOME='$work/home' PATH='$PATH' TERM=xterm-256color $2"
  tmux_wait_for -E "[^[:space:]]" > /dev/null  # its prompt
  # the setup, then a word it prints once the setup is done (typed lower case, printed upper)
  tm send-keys -t "$1" -l -- "$3; echo nudge-ready | tr a-z A-Z"; tm send-keys -t "$1" Enter
  tmux_wait_for NUDGE-READY > /dev/null
  tm send-keys -t "$1" C-l
  wait_for cleared
  tmux_keys -l -- "$4"
  tmux_keys Tab  # the first Tab completes what it can…
  tm send-keys -t "$1" Tab  # …the second lists the rest
  tmux_wait_for -E "$5" > /dev/null
  tmux_screen -
}
zsh_setup="fpath=('$prefix/share/zsh/site-functions' \$fpath); autoload -U compinit; compinit -u"
fish_setup="source '$prefix/share/fish/vendor_completions.d/nudge.fish'"
for shell in zsh fish; do
  if [ "$shell" = zsh ]; then command="zsh -f" setup=$zsh_setup; else command="fish --no-config" setup=$fish_setup; fi
  screen=$(shell_tab "$shell" "$command" "$setup" "nudge config set celebrations " "^on +off")
  check "$shell: config set celebrations offers on and off" \
    bash -c 'grep -q "celebrations o" <<< "$1" && grep -qE "^on +off" <<< "$1"' _ "$screen"
  screen=$(shell_tab "$shell" "$command" "$setup" "nudge import b" "nudge import backup.json")
  check "$shell: import completes the JSON file" grep -q "nudge import backup.json" <<< "$screen"
  screen=$(shell_tab "$shell" "$command" "$setup" "nudge wal" "nudge walk")
  check "$shell: a plan file's flow completes (nudge wal -> nudge walk)" grep -q "nudge walk" <<< "$screen"
  screen=$(shell_tab "$shell" "$command" "$setup" "nudge s" "sleep")
  check "$shell: the sleep plan's flow is offered beside the commands" \
    bash -c 'grep -q "sleep" <<< "$1" && grep -q "schedule" <<< "$1"' _ "$screen"
done

[ "$failed" = 0 ] || tail -20 "$work/out"
e2e_done
