import ArgumentParser

/// The shell completion scripts: argument-parser's, for nudge's own commands, plus the flows
/// plans add (`nudge sleep`), which the script asks `nudge plan words` for as it completes —
/// a plan file dropped in later completes too, and no list of flows is written down twice.
enum Completions {
  /// The shell a `--generate-completion-script SHELL` (or `=SHELL`) asks for; nil when the
  /// arguments ask for something else.
  static func requestedShell(_ arguments: [String]) -> CompletionShell? {
    guard let first = arguments.first else { return nil }
    let flag = "--generate-completion-script"
    if first == flag, arguments.count == 2 { return CompletionShell(rawValue: arguments[1]) }
    if first.hasPrefix(flag + "="), arguments.count == 1 {
      return CompletionShell(rawValue: String(first.dropFirst(flag.count + 1)))
    }
    return nil
  }

  /// The whole script for `shell`.
  static func script(for shell: CompletionShell) -> String {
    let base = Nudge.completionScript(for: shell)
    switch shell {
    case .bash:
      return base + """

        # the flows plans add (nudge plan words), offered beside the commands
        _nudge_with_plan_flows() {
            _nudge "$@"
            if [[ "${COMP_CWORD}" -eq 1 ]]; then
                local flows
                flows="$(command nudge plan words 2>/dev/null | cut -f1)"
                COMPREPLY+=($(compgen -W "${flows}" -- "$2"))
            fi
        }
        complete -o filenames -F _nudge_with_plan_flows nudge

        """
    case .zsh:
      let describe = "        _describe -V subcommand subcommands && ret=0\n"
      let withFlows = """
                # the flows plans add (nudge plan words), offered beside the commands
                local -a plan_flows=(${(f)"$(command nudge plan words 2>/dev/null)"})
                plan_flows=(${plan_flows/$'\\t'/:})
                _describe -V subcommand subcommands -- plan_flows && ret=0

        """
      // the root command's list only (the first: each command with subcommands has one)
      var script = base
      if let root = script.firstRange(of: describe) {
        script.replaceSubrange(root, with: withFlows)
      }
      return script
    case .fish:
      return base + """

        # the flows plans add (nudge plan words), offered beside the commands
        complete -c 'nudge' -n '__nudge_should_offer_completions_for_positional "nudge" -eq 1' -fa '(command nudge plan words 2>/dev/null)'

        """
    default:
      return base
    }
  }
}
