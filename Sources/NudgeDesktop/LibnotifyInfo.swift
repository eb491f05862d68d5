import CLibnotify

/// Facts about the libnotify library this binary is linked against.
public enum LibnotifyInfo {
  /// Whether libnotify has been initialised in this process.
  public static var isInitted: Bool { notify_is_initted() != 0 }
}
