"""The simulator's own code: the rules engine, the frames it prints, the simulated runtime."""
