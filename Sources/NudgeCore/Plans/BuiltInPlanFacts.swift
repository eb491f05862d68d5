extension BuiltInPlans {
  /// The built-in plans whose file says `on = false`: off until the person turns them on.
  /// Known without reading them (PlanFileTests holds this to the files), so a command that
  /// asks only of the plans that are on need not read these (`Context.plansOn`).
  public static let offByDefault = ["sleep"]
}
