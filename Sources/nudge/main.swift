import NudgeCLI

await NudgeMain.main()
