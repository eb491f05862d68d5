import NudgeCLI

NudgeMain.main()
