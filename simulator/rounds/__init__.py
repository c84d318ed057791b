"""Rounds: two players, five stages of five tricks, game to 200 (`shared/rules/rounds.md`)."""
