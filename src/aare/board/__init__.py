"""Board geography, unit catalogue and powers."""
