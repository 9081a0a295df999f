"""What generated code and the engines import: definitions, effects API, RNG, agents, sims."""
