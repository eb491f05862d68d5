"""The reliability and security suite, run by scripts/reliability.py; scripts/bench uses Desktop."""
