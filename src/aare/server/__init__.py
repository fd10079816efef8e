"""The online table: a FastAPI server storing games in SQLite or PostgreSQL, with accounts, seats, bots,
live updates and committed dice. Importing this package loads nothing heavy: the web stack is imported by
`aare.server.api` only, so `aare verify` works without the server extra."""
