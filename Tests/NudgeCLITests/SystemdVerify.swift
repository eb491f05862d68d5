import Foundation

/// `systemd-analyze verify --user` of `units` (paths, or names found through the unit search
/// path of `config`'s `systemd/user`), as systemd itself reads them: its exit status and what
/// it complained of.
func systemdVerify(_ units: [String], home: String, config: String) throws -> (
  status: Int32, complaints: String
) {
  let runtime = home + "/runtime"
  try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
  let verify = Process()
  verify.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
  verify.arguments = ["verify", "--user", "--man=no"] + units
  verify.environment = [
    "XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": config, "HOME": home, "PATH": "/usr/bin:/bin",
  ]
  let errors = Pipe()
  verify.standardError = errors
  try verify.run()
  verify.waitUntilExit()
  let complaints = String(
    decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  return (verify.terminationStatus, complaints)
}
