"""The batched Rounds core against the reference engine: the same decks and shuffles, the same
deterministic strategies, card for card and score for score, and the per-game table against what the
reference engine played.

Each (rules, seating) case is played once per module (a module-scoped fixture: the batched games and the
reference engine's records of them) and shared by the tests below."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from simulator import registry, testing
from simulator.rounds import core, fifth, reference
from simulator.rounds.rules import RoundsRules
from simulator.testing import ViewHash
from tests.helpers import stable_hash, strategy

# every test of a case on the worker that played it: the module-scoped case fixture is played once, not on
# both workers
pytestmark = pytest.mark.xdist_group("rounds-equivalence")

GAME = registry.get("rounds")


RULES = {
    f"{rot}-{'rank' if rt else 'plain'}": RoundsRules(dealer_rotation=rot, rank_trumps=rt)
    for rot in ("stage", "game")
    for rt in (False, True)
}

SEATINGS = {
    "greedy": lambda: [strategy("rounds", "greedy")] * 2,
    "heuristic": lambda: [strategy("rounds", "heuristic")] * 2,
    "fieldhash": lambda: [ViewHash()] * 2,
    "mixed": lambda: [strategy("rounds", "heuristic:duck_margin=-3,trump_cost=1"), ViewHash()],
}
CASES = [(r, s) for r in RULES for s in SEATINGS]
GAMES = 60  # per case in the fast suite
GAMES_SLOW = 3000  # per case with -m slow


@dataclass
class Played:
    rules: RoundsRules
    state: core.GameState
    table: Any  # the per-game table of the batched games
    records: list[reference.GameRecord]  # the reference engine's, row by row
    both: testing.Played


def play_case(rules_name: str, seating: str, n: int, seed: int) -> Played:
    """n games through both engines (`simulator.testing`)."""
    rules, seats = RULES[rules_name], SEATINGS[seating]()
    both = testing.play_both(GAME, rules, seats, n, seed=seed)
    assert both.records is not None
    return Played(rules, both.states[0], both.tables["deals"], both.records[0], both)


@pytest.fixture(scope="module", params=CASES, ids=[f"{r}/{s}" for r, s in CASES])
def played(request) -> Played:
    rules_name, seating = request.param
    return play_case(rules_name, seating, GAMES, stable_hash(f"rounds/{rules_name}/{seating}"))


def check_moves_and_scores(p: Played) -> None:
    assert testing.check_agreement(p.both) == len(p.records)
    for row, record in enumerate(p.records):
        stage_points = [tuple(int(x) for x in pts) for pts in p.state.stage_score[row]]
        assert [st.points for st in record.stages] == stage_points, f"game {row}: stage points differ"
        faces = [[int(c) for c in f if c >= 0] for f in p.state.faces[row]]
        assert [st.face_up for st in record.stages] == faces, f"game {row}: face-up cards differ"


def expected_row(record: reference.GameRecord, rules: RoundsRules) -> dict[str, int]:
    """The per-game table's row as the reference engine's record tells it."""
    row = {"first_dealer": record.first_dealer, "points_0": record.points[0], "points_1": record.points[1]}
    for k, stage in enumerate(record.stages, 1):
        sweep = -1 if stage.sweep is None else stage.sweep
        swept_cards = -1 if stage.sweep is None else reference.cards_points(stage.taken[stage.sweep], rules)
        winners = {t.winner for t in stage.tricks[:4]}
        first4 = (
            reference.cards_points([c for t in stage.tricks[:4] for c in t.cards], rules)
            if len(winners) == 1
            else -1
        )
        row |= {
            f"s{k}_points_0": stage.points[0],
            f"s{k}_points_1": stage.points[1],
            f"s{k}_sweep": sweep,
            f"s{k}_swept_cards": swept_cards,
            f"s{k}_short_sweep": sweep >= 0 and swept_cards > rules.sweep_bonus,
            f"s{k}_first4": first4,
            f"s{k}_fifth_points": reference.cards_points(stage.tricks[4].cards, rules),
            f"s{k}_dealer_tricks": sum(t.winner == stage.dealer for t in stage.tricks),
            f"s{k}_leader_tricks": sum(t.winner == t.leader for t in stage.tricks),
            f"s{k}_dealer_points": stage.points[stage.dealer],
            f"s{k}_fifth_call": fifth_call(stage, rules) if len(winners) == 1 else fifth.NOT_AT_STAKE,
        }
    return row


def fifth_call(stage: reference.Stage, rules: RoundsRules) -> int:
    """Who decided trick 5 of a stage whose tricks 1-4 one player took, from the reference's record: the
    hands at trick 5 are the hands after the deal less the cards of tricks 1-4."""
    holder = stage.tricks[0].winner
    hands = [set(h) for h in stage.hands_after_deal]
    for t in stage.tricks[:4]:
        hands[t.leader].discard(t.cards[0])
        hands[1 - t.leader].discard(t.cards[1])
    trump = stage.tricks[4].trump_card

    def beatable(c: int) -> bool:
        replies = reference.legal_plays(sorted(hands[1 - holder]), c, trump, rules)
        return any(reference.trick_winner(holder, [c, r], trump, rules) != holder for r in replies)

    if stage.tricks[4].winner != holder:
        return fifth.OPPONENT_TOOK
    if beatable(stage.tricks[4].cards[0]):
        return fifth.LET_THROUGH
    return fifth.TOOK if any(beatable(c) for c in hands[holder]) else fifth.NO_CHOICE


def test_moves_and_scores_equal_the_reference(played: Played) -> None:
    check_moves_and_scores(played)


def test_the_game_table_tells_what_the_reference_engine_played(played: Played) -> None:
    table = played.table
    assert list(table.columns[:2]) == ["deal", "first_dealer"]
    assert table["deal"].tolist() == list(range(len(played.records)))
    calls = [f"s{k}_fifth_call" for k in range(1, 6)]
    # how trick 5 was decided is written by name, the categories in the order of fifth's codes
    names = {"opponent_took": fifth.OPPONENT_TOOK, "let_through": fifth.LET_THROUGH, "took": fifth.TOOK}
    names["no_choice"] = fifth.NO_CHOICE
    assert all(dict(zip(table[c].cat.categories, range(4))) == names for c in calls)
    codes = table.assign(**{c: table[c].cat.codes for c in calls})
    for row, record in enumerate(played.records):
        expected = expected_row(record, played.rules)
        assert set(table.columns) == {"deal", *expected}  # every column is checked
        got = {
            k: (bool(v) if isinstance(v, (bool, np.bool_)) else int(v))
            for k, v in codes.iloc[row][list(expected)].items()
        }
        assert got == expected, f"game {row}"


def test_every_case_reaches_sweeps_and_first_four_tricks(played: Played) -> None:
    """The cases are not vacuous: their games hold sweeps and stages decided at the fifth trick."""
    stages = [st for r in played.records for st in r.stages]
    assert any(st.sweep is not None for st in stages)
    assert any(len({t.winner for t in st.tricks[:4]}) == 1 and st.sweep is None for st in stages)


def test_every_way_of_deciding_the_fifth_trick_occurs() -> None:
    """The fifth-trick calls checked above are not vacuous: over the cases, each of the four occurs."""
    p = play_case("stage-plain", "fieldhash", 400, 11)
    calls = {int(c) for k in range(1, 6) for c in p.table[f"s{k}_fifth_call"].cat.codes}
    assert calls == {fifth.NOT_AT_STAKE, fifth.OPPONENT_TOOK, fifth.LET_THROUGH, fifth.TOOK, fifth.NO_CHOICE}


def test_fieldhash_chooses_alike_on_one_row_and_on_many() -> None:
    rng = np.random.default_rng(3)
    s = core.new_games(np.arange(64), np.arange(64) % 2, *core.draw(rng, 64), RULES["stage-rank"])
    for _ in range(30):
        view, legal = GAME.inputs(s, slice(None), 0, RULES["stage-rank"])
        want = ViewHash.batched(view, legal)
        one_by_one = [
            int(ViewHash().decide(0, view.take([i]), legal[i : i + 1], None)[0]) for i in range(len(s))
        ]
        assert one_by_one == want.tolist()
        GAME.apply(s, slice(None), 0, want, RULES["stage-rank"])


@pytest.mark.slow
@pytest.mark.parametrize("rules_name,seating", CASES, ids=[f"{r}/{s}" for r, s in CASES])
def test_batched_core_equals_reference_many(rules_name: str, seating: str) -> None:
    seed = stable_hash(f"rounds-many/{rules_name}/{seating}")
    check_moves_and_scores(play_case(rules_name, seating, GAMES_SLOW, seed))
