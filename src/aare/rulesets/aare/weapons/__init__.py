"""AARe weapons development on the board: research, rockets, air transport, raids with escorts."""
