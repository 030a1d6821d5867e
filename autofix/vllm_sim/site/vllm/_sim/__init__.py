"""The simulator's engine and data (autofix's own code)."""
