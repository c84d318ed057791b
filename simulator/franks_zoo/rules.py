"""Every rule option of Frank's Zoo (`shared/rules/franks-zoo.md`); the defaults are the seed's rules."""

from __future__ import annotations

from dataclasses import dataclass

from simulator.options import option


@dataclass(frozen=True)
class FranksZooRules:
    players: int = option(5, "number of players", lo=4, hi=7)
    target: int = option(
        19,
        "the game ends after a hand when end_players players have at least this many points",
        lo=1,
        hi=500,
        match_only=True,
    )
    end_players: int = option(
        2, "how many players must reach the target to end the game", lo=1, hi=7, match_only=True
    )
    exchange_cards: int = option(
        2,
        "cards a junior gives his senior, the senior gives back and the solo player "
        "sets aside, from the second hand on",
        lo=0,
        hi=8,
        match_only=True,
    )
    solo_bonus: int = option(
        4, "points the solo player adds to his placement points", lo=0, hi=100, match_only=True
    )
    lion_min: int = option(
        2, "a player who took at least this many lions scores 1 per lion", lo=1, hi=5, match_only=True
    )
    hedgehog_penalty: str = option(
        "captured",
        "captured = a player who took a hedgehog loses 1 (the seed); "
        "missing = a player who took no hedgehog loses 1 (the published rulebook)",
        choices=("captured", "missing"),
        match_only=True,
    )
    help: bool = option(True, "a junior may ask his senior for help from the second hand on", match_only=True)

    def __post_init__(self) -> None:
        if self.end_players > self.players:
            raise ValueError(f"end_players ({self.end_players}) cannot exceed players ({self.players})")


PRESETS: dict[str, dict[str, object]] = {
    "seed": {},
    "rulebook": {"hedgehog_penalty": "missing"},
}
