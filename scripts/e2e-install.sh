#!/usr/bin/env bash
# scripts/install into a temporary prefix and home, as a new user would run it: the binary, the
# man page, the completions, and units that point at the installed binary. Prints "N passed,
# N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix with space"
mkdir -p "$work/home"
env -u XDG_RUNTIME_DIR -u XDG_CONFIG_HOME -u XDG_DATA_HOME -u DBUS_SESSION_BUS_ADDRESS \
  HOME="$work/home" scripts/install --prefix "$prefix" > "$work/out" 2>&1
status=$?
passed=0 failed=0
check() {
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"
  else failed=$((failed + 1)); echo "FAIL $name"; fi
}
check "install: finishes (no user manager here)" test "$status" = 0
check "install: the binary runs" bash -c "'$prefix/bin/nudge' --version | grep -q ."
check "install: a man page in share/man/man1" grep -q '^\.Dt NUDGE 1' "$prefix/share/man/man1/nudge.1"
check "install: the man page documents the commands" grep -q 'need-help' "$prefix/share/man/man1/nudge.1"
check "install: bash completion" grep -q "first-prep" "$prefix/share/bash-completion/completions/nudge"
check "install: zsh completion" grep -q "#compdef nudge" "$prefix/share/zsh/site-functions/_nudge"
check "install: fish completion" grep -q "^complete -c 'nudge'" "$prefix/share/fish/vendor_completions.d/nudge.fish"
check "install: the units run the installed binary" \
  grep -qF "ExecStart=\"$prefix/bin/nudge\" notify %i --scheduled" "$work/home/.config/systemd/user/nudge-notify@.service"
check "install: the nudge:// handler runs the installed binary" \
  grep -qF "Exec=\"$prefix/bin/nudge\" open %u" "$work/home/.local/share/applications/nudge.desktop"
check "install: the icon is in the hicolor theme" test -s "$work/home/.local/share/icons/hicolor/scalable/apps/nudge.svg"
[ "$failed" = 0 ] || tail -20 "$work/out"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
