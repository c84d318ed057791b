"""The scalar Frank's Zoo reference engine against the rules file (`shared/rules/franks-zoo.md`) and its
seed: the beats table, sets, help, tricks, places, scoring, standings, teams, the game end, random play."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import numpy as np
import pytest

from simulator.errors import DealsimError, IllegalAction
from simulator.franks_zoo.cards import DECK, KINDS, N_SETS, PARTIALS, SETS, SHORT
from simulator.franks_zoo.reference import (
    HandRecord,
    beats,
    beats_kind,
    cards_text,
    completes,
    deal_sizes,
    format_hand,
    game_over,
    hand_points,
    hand_to_dict,
    holds,
    is_set,
    legal_answers,
    legal_plays,
    may_ask_help,
    partial_index,
    play_hand,
    play_match,
    set_index,
    set_kind,
    set_size,
    standings,
    teams,
)
from simulator.franks_zoo.rules import FranksZooRules
from simulator.franks_zoo.view import (
    ALONE,
    ANSWER,
    ASK,
    EXCHANGE,
    JUNIOR,
    N_ACTIONS,
    PASS,
    PLAY,
    SENIOR,
    SOLO,
    placement_points,
)

WH, EL, CR, PB, LI, SE, FO, PE, HE, FI, MO, MQ, CH = range(13)
DECK_COUNTS = [int(c) for c in DECK]

# Table 2 of the rules file, typed again here: the kind on the table -> the kinds that beat it at equal size.
TABLE_2 = {
    WH: set(),
    EL: {MO},
    CR: {EL},
    PB: {EL, WH},
    LI: {EL},
    SE: {PB, WH},
    FO: {EL, CR, PB, LI},
    PE: {SE, PB, CR, WH},
    HE: {FO},
    FI: {PE, SE, CR, WH},
    MO: {CR, PB, LI, SE, FO, HE},
    MQ: {HE, FI, MO},
}


def R(kind: int, real: int, chameleon: int = 0, mosquito: int = 0) -> tuple[int, int, int, int]:
    return (kind, real, chameleon, mosquito)


def play(*row: int) -> int:
    return 1 + set_index(*row)


def ask(*row: int) -> int:
    return ASK + partial_index(*row)


def answer(*row: int) -> int:
    return 1 + set_index(*row)


def cards(text: str) -> list[int]:
    """13 counts from short names: 'Mo Mo He'."""
    counts = [0] * 13
    for word in text.split():
        counts[SHORT.index(word)] += 1
    return counts


def deal(n: int, hands: dict[int, str], rest: int) -> list[list[int]]:
    """The given seats hold the given cards; seat `rest` holds the rest of the deck."""
    dealt = [cards(hands.get(seat, "")) for seat in range(n)]
    dealt[rest] = [DECK_COUNTS[k] - sum(dealt[s][k] for s in range(n) if s != rest) for k in range(13)]
    assert min(dealt[rest]) >= 0
    return dealt


def random_deal(rng: np.random.Generator, n: int, dealer: int) -> list[list[int]]:
    deck = np.repeat(np.arange(13), DECK)
    rng.shuffle(deck)
    hands, start = [], 0
    for size in deal_sizes(n, dealer):
        hands.append([int(c) for c in np.bincount(deck[start : start + size], minlength=13)])
        start += size
    return hands


def dealing(rng: np.random.Generator, n: int):
    """A `deal(hand_no, dealer)` function for play_match: random deals from `rng`."""
    return lambda hand_no, dealer: random_deal(rng, n, dealer)


# ---------------------------------------------------------------------------------------------------------
# Test strategies


def check_view(kind, view, legal, rules) -> None:
    """Every field with its documented dtype and shape, read-only, and consistent with the others."""
    dtypes = {
        "seat": np.int8,
        "players": np.int8,
        "hand_no": np.int16,
        "hand": np.int8,
        "counts": np.int8,
        "table": np.int16,
        "table_player": np.int8,
        "leader": np.int8,
        "passes": np.int8,
        "asked": np.int16,
        "place": np.int8,
        "role": np.int8,
        "partner": np.int8,
        "scores": np.int32,
        "played": np.int8,
        "given": np.int8,
        "received": np.int8,
    }
    shapes = {
        "hand": (1, 13),
        "counts": (1, 7),
        "place": (1, 7),
        "role": (1, 7),
        "partner": (1, 7),
        "scores": (1, 7),
        "played": (1, 13),
        "given": (1, 13),
        "received": (1, 13),
    }
    for name, array in view.arrays().items():
        assert array.dtype == dtypes[name], name
        assert array.shape == shapes.get(name, (1,)), name
        assert not array.flags.writeable, name
    assert view.rules is rules
    assert legal.shape == (1, N_ACTIONS[kind]) and legal.dtype == bool and legal.any()
    n = int(view.players[0])
    seat = int(view.seat[0])
    assert n == rules.players and 0 <= seat < n
    hand = view.hand[0]
    assert hand.min() >= 0 and hand.sum() == view.counts[0, seat]
    assert (view.counts[0, n:] == 0).all() and (view.place[0, n:] == 0).all()
    assert (view.role[0, n:] == 0).all() and (view.partner[0, n:] == -1).all()
    assert (view.scores[0, n:] == 0).all()
    hand_no = int(view.hand_no[0])
    roles = view.role[0, :n]
    if hand_no == 0:
        assert (roles == ALONE).all() and (view.partner[0, :n] == -1).all()
    legal_actions = np.flatnonzero(legal[0])
    if kind == EXCHANGE:
        assert hand_no >= 1 and view.leader[0] == -1 and view.table[0] == -1 and view.asked[0] == -1
        assert list(legal_actions) == [k for k in range(13) if hand[k] > 0]
        return
    solo = hand_no >= 1 and n % 2 == 1
    assert view.counts[0, :n].sum() + view.played[0].sum() == 60 - (rules.exchange_cards if solo else 0)
    for s in range(n):
        assert (view.place[0, s] == 0) == (view.counts[0, s] > 0)
    if kind == PLAY:
        assert view.asked[0] == -1
        if view.table[0] == -1:
            assert view.leader[0] == seat and view.table_player[0] == -1 and view.passes[0] == 0
            assert not legal[0, PASS]
        else:
            assert legal[0, PASS]
        if legal[0, ASK:].any():
            assert hand_no >= 1 and roles[seat] == JUNIOR and view.table[0] >= 0
            assert view.counts[0, view.partner[0, seat]] > 0
    if kind == ANSWER:
        junior = int(view.partner[0, seat])
        assert roles[seat] == SENIOR and roles[junior] == JUNIOR and view.asked[0] >= 0
        assert legal[0, 0]


class Uniform:
    """Picks a legal action uniformly with the Generator it is handed; checks every view it sees."""

    spec = "uniform"

    def __init__(self, rules: FranksZooRules):
        self.rules = rules
        self.decisions = 0

    def decide(self, kind, view, legal, rng):
        check_view(kind, view, legal, self.rules)
        self.decisions += 1
        return np.array([rng.choice(np.flatnonzero(legal[0]))])


@dataclass
class Decision:
    kind: int
    seat: int
    legal: list[int]
    view: object


class Script:
    """Plays the scripted (kind, seat, action) moves in order, checking each is the decision asked for; then
    falls back to: give the lowest kind, lead the lowest set, pass otherwise, decline every help request."""

    spec = "script"

    def __init__(self, rules: FranksZooRules, moves=()):
        self.rules = rules
        self.moves = list(moves)
        self.log: list[Decision] = []

    def decide(self, kind, view, legal, rng):
        check_view(kind, view, legal, self.rules)
        seat = int(view.seat[0])
        legal_actions = [int(a) for a in np.flatnonzero(legal[0])]
        self.log.append(Decision(kind, seat, legal_actions, view))
        if self.moves:
            want_kind, want_seat, action = self.moves.pop(0)
            assert (kind, seat) == (want_kind, want_seat), f"got {kind, seat}, script {want_kind, want_seat}"
            assert action in legal_actions, f"scripted action {action} not legal: {legal_actions}"
            return np.array([action])
        if kind == PLAY and PASS in legal_actions:
            return np.array([PASS])
        return np.array([min(legal_actions)])


def run(
    n: int,
    hands,
    moves,
    *,
    hand_no: int = 0,
    dealer: int | None = None,
    order=None,
    scores=None,
    rules: FranksZooRules | None = None,
) -> tuple[HandRecord, Script]:
    rules = rules or FranksZooRules(players=n, end_players=2, exchange_cards=0 if hand_no else 2)
    order = list(range(n)) if order is None else order
    dealer = (order[0] if hand_no else n - 1) if dealer is None else dealer
    script = Script(rules, moves)
    record = play_hand(
        hands, hand_no, dealer, order, scores or [0] * n, rules, [script] * n, np.random.default_rng(0)
    )
    assert not script.moves, "the script was not played out"
    check_record(record, rules)
    return record, script


def check_record(record: HandRecord, rules: FranksZooRules) -> None:
    n = rules.players
    assert sorted(record.places) == list(range(1, n + 1))
    assert [record.places[s] for s in record.out_order] == list(range(1, n + 1))
    for k in range(13):
        assert sum(record.held[s][k] + record.taken[s][k] for s in range(n)) == DECK_COUNTS[k]
    held_now = [s for s in range(n) if sum(record.held[s])]
    assert held_now in ([], [record.out_order[-1]])
    trick_total = [sum(t.cards[k] for t in record.tricks) for k in range(13)]
    aside = [sum(record.set_aside[s][k] for s in range(n)) for k in range(13)]
    assert [trick_total[k] + aside[k] for k in range(13)] == [
        sum(record.taken[s][k] for s in range(n)) for k in range(13)
    ]
    assert sum(t.ended_hand for t in record.tricks) == 1 and record.tricks[-1].ended_hand
    sources = (
        record.placement,
        record.team,
        record.solo_bonus,
        record.lions,
        record.hedgehog,
        record.last_lions,
    )
    assert record.total == [sum(source[s] for source in sources) for s in range(n)]
    assert record.placement == [int(placement_points(record.places[s], n)) for s in range(n)]
    assert record.points == {
        "placement": record.placement,
        "team": record.team,
        "solo_bonus": record.solo_bonus,
        "lions": record.lions,
        "hedgehog": record.hedgehog,
        "last_lions": record.last_lions,
        "total": record.total,
    }
    json.dumps(hand_to_dict(record))
    assert format_hand(record)


# ---------------------------------------------------------------------------------------------------------
# Who beats whom; sets


def test_beats_table_every_row():
    for table in range(12):
        for kind in range(12):
            assert beats_kind(kind, table) == (kind in TABLE_2[table]), (kind, table)
            for size in (1, 2, 3):
                if size <= DECK_COUNTS[kind] and size <= DECK_COUNTS[table]:
                    expected = kind in TABLE_2[table]
                    assert beats(R(table, size), R(kind, size)) == expected, (kind, table, size)
    assert sum(beats_kind(a, b) for a in range(12) for b in range(12)) == 29
    assert not any(beats_kind(k, k) for k in range(12))
    assert not any(beats_kind(CH, k) or beats_kind(k, CH) for k in range(13))
    # A cycle: mouse > elephant > fox > mouse.
    assert beats_kind(MO, EL) and beats_kind(EL, FO) and beats_kind(FO, MO)
    assert not beats_kind(EL, MO) and not beats_kind(WH, EL)


def test_exactly_one_more_of_the_same_kind():
    assert beats(R(MO, 2), R(MO, 3))
    assert not beats(R(MO, 2), R(MO, 4))  # two more
    assert not beats(R(MO, 2), R(MO, 2))  # the same
    assert not beats(R(MO, 3), R(MO, 2))  # fewer
    assert beats(R(MO, 2), R(CR, 2))  # a predator, same size
    assert not beats(R(MO, 2), R(CR, 3))  # a larger set of a predator
    assert not beats(R(MO, 2), R(CR, 1))  # a smaller one
    assert not beats(R(WH, 1), R(WH, 3))
    assert beats(R(WH, 4), R(WH, 4, 1))  # the chameleon counts as one more whale
    assert beats(R(MO, 2), R(CR, 1, 1))  # crocodile + chameleon = 2 crocodiles
    assert not beats(R(MO, 2), R(CR, 2, 1))
    assert beats(R(MQ, 1), R(HE, 1)) and beats(R(MQ, 3), R(MQ, 3, 1)) and not beats(R(MQ, 1), R(EL, 1))


def test_elephants_with_a_mosquito_and_the_chameleon():
    assert set_kind(R(EL, 1, 0, 1)) == EL and set_size(R(EL, 1, 0, 1)) == 2
    assert set_size(R(EL, 2, 1, 1)) == 4
    assert beats(R(EL, 1), R(EL, 1, 0, 1))  # 1 elephant + 1 mosquito = 2 elephants
    assert beats(R(EL, 3), R(EL, 2, 1, 1))  # elephants + mosquito + chameleon
    assert beats(R(CR, 2), R(EL, 1, 0, 1))  # as 2 elephants they beat 2 crocodiles
    assert beats(R(EL, 1, 0, 1), R(MO, 2))  # and 2 mice beat them
    assert not beats(R(EL, 1, 0, 1), R(FO, 2))
    assert is_set(R(EL, 1, 0, 1)) and is_set(R(EL, 2, 1, 1))
    assert not is_set(R(EL, 0, 0, 1)) and not is_set(R(EL, 0, 1, 1))  # no real elephant
    assert not is_set(R(EL, 1, 0, 2)) and not is_set(R(MO, 1, 0, 1))  # one mosquito, elephants only
    assert not is_set(R(CH, 1)) and not is_set(R(MO, 0, 1))  # the chameleon never alone
    # Leading with elephant, two mosquitoes and the chameleon.
    lead = legal_plays(cards("El Mq Mq Ch"), -1)
    assert sorted(lead) == sorted(
        play(*r)
        for r in [
            R(EL, 1),
            R(EL, 1, 1),
            R(EL, 1, 0, 1),
            R(EL, 1, 1, 1),
            R(MQ, 1),
            R(MQ, 2),
            R(MQ, 1, 1),
            R(MQ, 2, 1),
        ]
    )
    # Mosquitoes without an elephant stay mosquitoes.
    assert legal_plays(cards("Mq Ch"), -1) == sorted([play(MQ, 1), play(MQ, 1, 1)])
    assert legal_plays(cards("Mq Mq"), set_index(EL, 1)) == [PASS]
    assert legal_plays(cards("El Mq"), set_index(EL, 1)) == [PASS, play(EL, 1, 0, 1)]
    assert legal_plays(cards("El Mq"), set_index(EL, 1, 0, 1)) == [PASS]  # 2 elephants: 3 or 2 mice needed


def test_sets_table_is_every_set_the_rules_allow():
    allowed = {
        R(kind, real, ch, mq)
        for kind in range(13)
        for real in range(6)
        for ch in (0, 1)
        for mq in (0, 1)
        if is_set(R(kind, real, ch, mq))
    }
    assert {tuple(int(x) for x in row) for row in SETS} == allowed
    assert len(allowed) == N_SETS == 128
    assert set_size(R(FI, 5, 1)) == 6 and set_size(R(MQ, 4, 1)) == 5


def test_the_chameleon_alone_is_never_a_play():
    assert legal_plays(cards("Ch"), -1) == []
    assert legal_plays(cards("Ch"), set_index(MO, 1)) == [PASS]
    assert legal_plays(cards("Ch Mo"), set_index(MO, 1)) == [PASS, play(MO, 1, 1)]
    # ... but a junior may lay it and ask for help: on one mouse, only as a mouse (2 mice beat 1).
    assert legal_plays(cards("Ch"), set_index(MO, 1), can_ask=True) == [PASS, ask(MO, 0, 1)]
    # On two mice, as any kind that beats mice, or as a mouse (3 mice).
    on_two_mice = legal_plays(cards("Ch"), set_index(MO, 2), can_ask=True)
    assert sorted(on_two_mice) == sorted([PASS] + [ask(k, 0, 1) for k in (CR, PB, LI, SE, FO, HE, MO)])


def test_completes():
    assert completes(R(HE, 1), R(HE, 2)) and completes(R(HE, 1), R(HE, 1, 1))
    assert completes(R(HE, 0, 1), R(HE, 1, 1))
    assert not completes(R(HE, 1), R(HE, 1))  # strictly more cards
    assert not completes(R(HE, 1), R(FO, 2))  # same kind
    assert not completes(R(HE, 1, 1), R(HE, 3))  # the laid chameleon stays
    assert completes(R(EL, 0, 0, 1), R(EL, 1, 0, 1)) and not completes(R(EL, 0, 0, 1), R(EL, 2))
    assert completes(R(EL, 1), R(EL, 1, 0, 1))  # the senior may add the mosquito
    assert not completes(R(MQ, 1), R(EL, 1, 0, 1))  # a mosquito laid as a mosquito stays one
    assert holds(cards("He He Ch"), cards("He Ch")) and not holds(cards("He Ch"), cards("He He"))


def test_legal_help_requests_and_answers():
    # The seed: on two mice the junior lays one hedgehog (2 hedgehogs beat 2 mice).
    two_mice = set_index(MO, 2)
    requests = legal_plays(cards("He Wh"), two_mice, can_ask=True)
    assert requests == [PASS, ask(HE, 1)]
    assert legal_plays(cards("He Wh"), two_mice, can_ask=False) == [PASS]
    assert legal_answers(cards("He Fo Ch"), two_mice, partial_index(HE, 1)) == sorted(
        [0, answer(HE, 2), answer(HE, 1, 1)]
    )
    assert legal_answers(cards("Fo Fo Mo"), two_mice, partial_index(HE, 1)) == [0]
    # The seed: on an elephant the junior lays a mosquito hoping for an elephant.
    one_elephant = set_index(EL, 1)
    assert legal_plays(cards("Mq Li"), one_elephant, can_ask=True) == [PASS, ask(EL, 0, 0, 1)]
    assert legal_plays(cards("Mq Ch"), one_elephant, can_ask=True) == sorted(
        [PASS, ask(EL, 0, 1), ask(EL, 0, 0, 1)]
    )
    assert legal_answers(cards("El El Ch"), one_elephant, partial_index(EL, 0, 0, 1)) == [
        0,
        answer(EL, 1, 0, 1),
    ]
    assert legal_answers(cards("Mo Ch"), one_elephant, partial_index(EL, 0, 0, 1)) == [0]
    # Every legal request has a completion that beats the table; every answer completes and beats.
    for table in range(N_SETS):
        hand = cards("Wh El Cr Cr Li He Fi Mo Mq Ch")
        for action in legal_plays(hand, table, can_ask=True):
            if action >= ASK:
                partial = PARTIALS[action - ASK]
                assert any(completes(partial, s) and beats(SETS[table], s) for s in SETS)


def test_may_ask_help_only_a_junior_from_the_second_hand():
    rules = FranksZooRules(players=4)
    roles, partners = teams([0, 1, 2, 3], 4)  # 0 senior + 2 junior, 1 senior + 3 junior
    held = [cards("Wh")] * 4
    assert may_ask_help(2, 1, roles, partners, held, rules)
    assert may_ask_help(3, 1, roles, partners, held, rules)
    assert not may_ask_help(0, 1, roles, partners, held, rules)  # a senior
    assert not may_ask_help(2, 0, roles, partners, held, rules)  # the first hand
    assert not may_ask_help(2, 1, roles, partners, held, FranksZooRules(players=4, help=False))
    out = [cards(""), cards("Wh"), cards("Wh"), cards("Wh")]
    assert not may_ask_help(2, 1, roles, partners, out, rules)  # the senior is out
    solo_roles, solo_partners = teams([0, 1, 2, 3, 4], 5)
    assert not may_ask_help(2, 1, solo_roles, solo_partners, [cards("Wh")] * 5, FranksZooRules())


# ---------------------------------------------------------------------------------------------------------
# Tricks, places and the end of a hand


def test_passing_and_reentering_in_the_same_trick():
    hands = deal(4, {0: "Mo Fi", 1: "El Pe", 2: "Fo Fi"}, rest=3)
    moves = [
        (PLAY, 0, play(MO, 1)),
        (PLAY, 1, PASS),
        (PLAY, 2, play(FO, 1)),
        (PLAY, 3, PASS),
        (PLAY, 0, PASS),
        (PLAY, 1, play(EL, 1)),
        (PLAY, 2, PASS),
        (PLAY, 3, PASS),
        (PLAY, 0, PASS),
    ]
    record, script = run(4, hands, moves)
    log = script.log
    assert log[1].legal == [PASS]  # an elephant does not beat a mouse
    assert log[5].seat == 1 and play(EL, 1) in log[5].legal  # seat 1 passed, and now plays
    view = log[5].view
    assert view.table[0] == set_index(FO, 1) and view.table_player[0] == 2 and view.passes[0] == 2
    assert view.leader[0] == 0
    assert log[4].view.passes[0] == 1  # the count restarted after the fox
    first = record.tricks[0]
    assert (first.leader, first.taker, first.cards) == (0, 1, cards("Mo Fo El"))
    assert first.plays == [(s, a, -1) for _, s, a in moves]
    assert log[9].seat == 1 and log[9].view.table[0] == -1  # the taker leads the next trick


def test_a_trick_won_by_a_player_who_is_out():
    hands = deal(4, {0: "Mo", 1: "Fi Fi", 2: "Pe"}, rest=3)
    moves = [
        (PLAY, 0, play(MO, 1)),
        (PLAY, 1, PASS),
        (PLAY, 2, PASS),
        (PLAY, 3, PASS),
        (PLAY, 1, play(FI, 2)),
        (PLAY, 2, PASS),
        (PLAY, 3, PASS),
        (PLAY, 2, play(PE, 1)),
    ]
    record, script = run(4, hands, moves)
    assert [(t.leader, t.taker, t.cards) for t in record.tricks] == [
        (0, 0, cards("Mo")),
        (1, 1, cards("Fi Fi")),
        (2, 2, cards("Pe")),
    ]
    assert [t.ended_hand for t in record.tricks] == [False, False, True]
    assert record.places == [1, 2, 3, 4] and record.out_order == [0, 1, 2, 3]
    assert record.taken[:3] == [cards("Mo"), cards("Fi Fi"), cards("Pe")] and record.taken[3] == [0] * 13
    assert len(record.moves) == len(moves)
    lead = script.log[4].view  # seat 1 leads: seat 0 took it but is out
    assert lead.leader[0] == 1 and lead.table[0] == -1 and list(lead.place[0]) == [1, 0, 0, 0, 0, 0, 0]
    view = script.log[5].view
    assert list(view.counts[0]) == [0, 0, 1, 56, 0, 0, 0] and list(view.place[0]) == [1, 2, 0, 0, 0, 0, 0]
    assert view.table_player[0] == 1 and view.passes[0] == 0
    assert record.placement == [4, 3, 2, 0] and record.total == [4, 3, 2, 0]


def test_the_hand_ends_when_one_player_holds_cards():
    hands = deal(4, {0: "Mo", 1: "Fo", 2: "El"}, rest=3)
    moves = [(PLAY, 0, play(MO, 1)), (PLAY, 1, play(FO, 1)), (PLAY, 2, play(EL, 1))]
    record, _ = run(4, hands, moves)
    assert len(record.tricks) == 1
    trick = record.tricks[0]
    assert (trick.leader, trick.taker, trick.cards, trick.ended_hand) == (0, 2, cards("Mo Fo El"), True)
    assert record.places == [1, 2, 3, 4]
    assert record.taken[2] == cards("Mo Fo El") and sum(record.held[3]) == 57
    assert record.total == [4, 3, 2, 0]


def test_the_last_players_lions_and_both_hedgehog_readings():
    # Second hand, 4 players: standings 3, 1, 2, 0 -> 3 senior + 2 junior, 1 senior + 0 junior; 0 leads.
    hands = deal(4, {0: "Mo", 1: "Fo", 2: "El"}, rest=3)
    moves = [(PLAY, 0, play(MO, 1)), (PLAY, 1, play(FO, 1)), (PLAY, 2, play(EL, 1))]
    seed, _ = run(4, hands, moves, hand_no=1, order=[3, 1, 2, 0])
    assert seed.roles == [JUNIOR, SENIOR, JUNIOR, SENIOR] and seed.partners == [1, 0, 3, 2]
    assert seed.dealer == 3 and seed.leader == 0
    assert seed.placement == [4, 3, 2, 0] and seed.team == [3, 4, 0, 2]
    assert seed.last_lions == [0, 0, 0, -5] and seed.lions == [0, 0, 0, 0] and seed.hedgehog == [0, 0, 0, 0]
    assert seed.total == [7, 7, 2, -3]
    rulebook = FranksZooRules(players=4, exchange_cards=0, hedgehog_penalty="missing")
    other, _ = run(4, hands, moves, hand_no=1, order=[3, 1, 2, 0], rules=rulebook)
    assert other.hedgehog == [-1, -1, -1, -1] and other.total == [6, 6, 1, -4]


def test_a_lead_with_only_the_chameleon_is_skipped():
    hands = deal(4, {0: "Mo Ch", 1: "Fi", 2: "Pe"}, rest=3)
    moves = [
        (PLAY, 0, play(MO, 1)),
        (PLAY, 1, PASS),
        (PLAY, 2, PASS),
        (PLAY, 3, PASS),
        (PLAY, 1, play(FI, 1)),
        (PLAY, 2, PASS),
        (PLAY, 3, PASS),
        (PLAY, 0, PASS),
        (PLAY, 2, play(PE, 1)),
        (PLAY, 3, PASS),
        (PLAY, 0, PASS),
    ]
    record, script = run(4, hands, moves)
    second = record.tricks[1]
    assert second.skipped == [0] and second.leader == 1 and second.taker == 1
    assert record.tricks[2].leader == 2 and record.tricks[2].skipped == []
    for trick in record.tricks[3:]:
        assert trick.leader == 3 and trick.taker == 3
    later = [d for d in script.log[1:] if d.seat == 0]
    assert later and all(d.legal == [PASS] and d.view.table[0] >= 0 for d in later)
    assert record.places == [4, 1, 2, 3] and record.held[0] == cards("Ch")
    assert record.total == [0, 4, 3, 2]


def test_seed_help_hedgehog_on_two_mice():
    # 4 players, second hand, standings 0 1 2 3: 0 senior + 2 junior, 1 senior + 3 junior; 3 leads.
    hands = deal(4, {3: "Mo Mo Wh", 0: "He Fi", 2: "He Li Li"}, rest=1)
    moves = [
        (PLAY, 3, play(MO, 2)),
        (PLAY, 0, PASS),
        (PLAY, 1, PASS),
        (PLAY, 2, ask(HE, 1)),
        (ANSWER, 0, answer(HE, 2)),
        (PLAY, 3, PASS),
        (PLAY, 0, PASS),
        (PLAY, 1, PASS),
    ]
    record, script = run(4, hands, moves, hand_no=1)
    log = script.log
    assert log[1].legal == [PASS]  # the senior cannot ask
    assert log[3].legal == sorted([PASS, play(LI, 2), ask(HE, 1), ask(LI, 1)])
    request = log[4].view
    assert log[4].kind == ANSWER and log[4].legal == [0, answer(HE, 2)]
    assert request.seat[0] == 0 and request.asked[0] == partial_index(HE, 1)
    assert request.table[0] == set_index(MO, 2) and request.table_player[0] == 3 and request.passes[0] == 2
    assert request.counts[0, 2] == 3  # the laid hedgehog is still the junior's
    after = log[5].view
    assert after.table[0] == set_index(HE, 2) and after.table_player[0] == 2 and after.passes[0] == 0
    assert list(after.counts[0, :4]) == [1, 52, 2, 1]
    assert after.played[0, HE] == 2 and after.played[0, MO] == 2
    trick = record.tricks[0]
    assert (trick.leader, trick.taker, trick.cards) == (3, 2, cards("Mo Mo He He"))
    assert trick.plays[3] == (2, ask(HE, 1), answer(HE, 2))
    assert record.moves[3:5] == [(PLAY, 2, ask(HE, 1)), (ANSWER, 0, answer(HE, 2))]
    assert record.tricks[1].leader == 2  # the junior leads the next trick
    text = format_hand(record)
    assert (
        "seat 2 lays 1 hedgehog and asks seat 0 for help: seat 0 adds 1 hedgehog; seat 2 plays 2 hedgehog"
    ) in text
    assert "-> seat 2 takes 2 hedgehog, 2 mouse" in text


def test_seed_help_mosquito_on_an_elephant():
    hands = deal(4, {3: "El Wh", 0: "El Fi", 2: "Mq Li"}, rest=1)
    moves = [
        (PLAY, 3, play(EL, 1)),
        (PLAY, 0, PASS),
        (PLAY, 1, PASS),
        (PLAY, 2, ask(EL, 0, 0, 1)),
        (ANSWER, 0, answer(EL, 1, 0, 1)),
        (PLAY, 3, PASS),
        (PLAY, 0, PASS),
        (PLAY, 1, PASS),
    ]
    record, script = run(4, hands, moves, hand_no=1)
    log = script.log
    assert log[3].legal == [PASS, ask(EL, 0, 0, 1)]
    assert log[4].legal == [0, answer(EL, 1, 0, 1)]
    after = log[5].view
    assert after.table[0] == set_index(EL, 1, 0, 1) and after.table_player[0] == 2
    assert list(after.counts[0, [0, 2, 3]]) == [1, 1, 1]
    assert after.played[0, EL] == 2 and after.played[0, MQ] == 1
    trick = record.tricks[0]
    assert (trick.leader, trick.taker, trick.cards) == (3, 2, cards("El El Mq"))


def test_help_declined_is_a_pass():
    hands = deal(4, {3: "Mo Mo Wh", 0: "He Fi", 2: "He Li Li"}, rest=1)
    moves = [(PLAY, 3, play(MO, 2)), (PLAY, 0, PASS), (PLAY, 1, PASS), (PLAY, 2, ask(HE, 1)), (ANSWER, 0, 0)]
    record, script = run(4, hands, moves, hand_no=1)
    trick = record.tricks[0]
    assert (trick.leader, trick.taker, trick.cards) == (3, 3, cards("Mo Mo"))
    assert trick.plays[-1] == (2, ask(HE, 1), 0)
    nxt = script.log[5].view
    assert nxt.seat[0] == 3 and nxt.table[0] == -1 and list(nxt.hand[0]) == cards("Wh")
    assert script.log[6].seat == 0 and script.log[6].view.counts[0, 2] == 3  # the hedgehog went back


def test_both_partners_out_on_one_helped_set():
    hands = deal(4, {0: "He", 1: "Wh Ch", 2: "He"}, rest=3)
    moves = [
        (PLAY, 3, play(MO, 2)),
        (PLAY, 0, PASS),
        (PLAY, 1, PASS),
        (PLAY, 2, ask(HE, 1)),
        (ANSWER, 0, answer(HE, 2)),
        (PLAY, 3, PASS),
        (PLAY, 1, PASS),
    ]
    record, _ = run(4, hands, moves, hand_no=1)
    assert record.out_order[:2] == [2, 0]  # the junior first
    assert record.places == [2, 4, 1, 3]
    assert record.tricks[0].taker == 2 and record.tricks[1].leader == 3
    assert record.held[1] == cards("Wh Ch")
    assert record.placement == [3, 0, 4, 2] and record.team == [4, 2, 3, 0]
    assert record.lions == [0, 0, 0, 5] and record.hedgehog == [0, 0, -1, -1] and record.last_lions == [0] * 4
    assert record.total == [7, 2, 6, 6]
    assert "seat 2 is out (place 1); seat 0 is out (place 2)" in format_hand(record)


def test_exchange_order_and_views():
    # 5 players, second hand, standings 0 1 2 3 4: 0 senior + 3 junior, 1 senior + 4 junior, 2 solo.
    sorted_deck = [k for k in range(13) for _ in range(DECK_COUNTS[k])]
    hands = [[sorted_deck[12 * s : 12 * s + 12].count(k) for k in range(13)] for s in range(5)]
    assert hands[3] == cards("Pe Pe Pe Pe He He He He He Fi Fi Fi")
    moves = [
        (EXCHANGE, 3, HE),
        (EXCHANGE, 3, HE),
        (EXCHANGE, 0, WH),
        (EXCHANGE, 0, HE),
        (EXCHANGE, 4, CH),
        (EXCHANGE, 4, MQ),
        (EXCHANGE, 1, LI),
        (EXCHANGE, 1, CR),
        (EXCHANGE, 2, SE),
        (EXCHANGE, 2, FO),
    ]
    rules = FranksZooRules(players=5)
    record, script = run(5, hands, moves, hand_no=1, rules=rules, scores=[9, 8, 7, 6, 5])
    assert record.roles == [SENIOR, SENIOR, SOLO, JUNIOR, JUNIOR] and record.partners == [3, 4, -1, 0, 1]
    assert record.dealer == 0 and record.leader == 4
    assert record.moves[:10] == moves
    log = script.log
    first, second, senior = log[0].view, log[1].view, log[2].view
    assert first.leader[0] == -1 and first.table[0] == -1 and list(first.given[0]) == [0] * 13
    assert list(second.given[0]) == cards("He")
    assert list(second.hand[0]) == cards("Pe Pe Pe Pe He He He He Fi Fi Fi")
    assert list(senior.received[0]) == cards("He He") and senior.hand[0, HE] == 2
    assert list(senior.counts[0, :5]) == [14, 12, 12, 10, 12]
    assert HE in log[3].legal  # the senior may give back a received card
    assert list(log[3].view.scores[0]) == [9, 8, 7, 6, 5, 0, 0]
    assert record.exchanged == [
        cards("Wh Wh Wh Wh El El El El El Cr Cr He"),
        cards("Cr Cr PB PB PB PB PB Li Li Li Mq Ch"),
        cards("Li Se Se Se Se Fo Fo Fo Fo Pe"),
        cards("Wh Pe Pe Pe Pe He He He He Fi Fi Fi"),
        cards("Cr Li Fi Fi Mo Mo Mo Mo Mo Mq Mq Mq"),
    ]
    assert record.set_aside == [[0] * 13, [0] * 13, cards("Se Fo"), [0] * 13, [0] * 13]
    assert all(record.taken[2][k] >= record.set_aside[2][k] for k in range(13))
    in_play = next(d.view for d in log if d.kind == PLAY and d.seat == 3)
    assert list(in_play.given[0]) == cards("He He") and list(in_play.received[0]) == cards("Wh He")
    assert in_play.counts[0, :5].sum() + in_play.played[0].sum() == 58
    text = format_hand(record)
    assert "seat 3 (junior) gives seat 0: 2 hedgehog" in text
    assert "seat 2 (solo) sets aside: 1 seal, 1 fox" in text


def test_a_solo_player_who_sets_aside_his_whole_hand_is_out_at_once():
    rules = FranksZooRules(players=7, exchange_cards=8)
    order = [0, 1, 2, 5, 3, 4, 6]  # seat 5 solo, dealt 8 cards by seat 0
    rng = np.random.default_rng(7)
    for _ in range(5):
        hands = random_deal(rng, 7, 0)
        assert sum(hands[5]) == 8
        record = play_hand(hands, 1, 0, order, [0] * 7, rules, [Uniform(rules)] * 7, rng)
        check_record(record, rules)
        assert record.roles[5] == SOLO and record.out_order[0] == 5 and record.places[5] == 1
        assert record.taken[5][:13] != [0] * 13 and sum(record.set_aside[5]) == 8


# ---------------------------------------------------------------------------------------------------------
# Scoring, standings, teams


def test_deal_sizes():
    assert deal_sizes(4, 0) == [15] * 4 and deal_sizes(5, 3) == [12] * 5 and deal_sizes(6, 1) == [10] * 6
    assert deal_sizes(7, 2) == [8, 8, 8, 9, 9, 9, 9]
    assert deal_sizes(7, 6) == [9, 9, 9, 9, 8, 8, 8]


def test_placement_points():
    assert [int(placement_points(p, 5)) for p in range(1, 6)] == [5, 4, 3, 2, 0]
    assert [int(placement_points(p, 4)) for p in range(1, 5)] == [4, 3, 2, 0]
    assert [int(placement_points(p, 7)) for p in range(1, 8)] == [7, 6, 5, 4, 3, 2, 0]


def test_seed_team_and_solo_scores():
    rules = FranksZooRules()
    order = [4, 2, 0, 1, 3]  # 4 + 1, 2 + 3, 0 solo
    roles, partners = teams(order, 5)
    places = [3, 5, 2, 4, 1]  # team 4+1: 1st and 5th; 2+3: 2nd and 4th
    nothing = [[0] * 13 for _ in range(5)]
    points = hand_points(places, nothing, nothing, roles, partners, 1, rules)
    assert points["placement"] == [3, 0, 4, 2, 5]
    assert points["team"] == [0, 5, 2, 4, 0] and points["solo_bonus"] == [4, 0, 0, 0, 0]
    assert points["total"] == [7, 5, 6, 6, 5]  # 3+4, 5+0, 4+2
    first = hand_points(places, nothing, nothing, [ALONE] * 5, [-1] * 5, 0, rules)
    assert first["total"] == [3, 0, 4, 2, 5] and first["team"] == [0] * 5
    other = hand_points(places, nothing, nothing, roles, partners, 1, FranksZooRules(solo_bonus=1))
    assert other["solo_bonus"] == [1, 0, 0, 0, 0] and other["total"] == [4, 5, 6, 6, 5]


def test_lions_and_hedgehogs():
    roles, partners = teams([0, 1, 2, 3], 4)
    places = [1, 2, 3, 4]
    taken = [cards("Li Li He"), cards("Li"), cards("He He Fi"), cards("")]
    held = [cards(""), cards(""), cards(""), cards("Li Li Mo")]
    seed = hand_points(places, taken, held, roles, partners, 1, FranksZooRules(players=4))
    assert seed["lions"] == [2, 0, 0, 0] and seed["hedgehog"] == [-1, 0, -1, 0]
    assert seed["last_lions"] == [0, 0, 0, -2]
    assert seed["placement"] == [4, 3, 2, 0] and seed["team"] == [2, 0, 4, 3]
    assert seed["total"] == [7, 3, 5, 1]
    rulebook = hand_points(
        places,
        taken,
        held,
        roles,
        partners,
        1,
        FranksZooRules(players=4, hedgehog_penalty="missing", lion_min=1),
    )
    assert rulebook["lions"] == [2, 1, 0, 0] and rulebook["hedgehog"] == [0, -1, 0, -1]
    assert rulebook["total"] == [8, 3, 6, 0]
    three = hand_points(places, taken, held, roles, partners, 1, FranksZooRules(players=4, lion_min=3))
    assert three["lions"] == [0, 0, 0, 0]
    first = hand_points(places, taken, held, [ALONE] * 4, [-1] * 4, 0, FranksZooRules(players=4))
    assert first["total"] == [4, 3, 2, 0] and first["last_lions"] == [0] * 4 and first["hedgehog"] == [0] * 4


def test_teams():
    roles, partners = teams([3, 0, 4, 1, 2], 5)  # A=3 B=0 C=4 D=1 E=2: A+D, B+E, C solo
    assert roles == [SENIOR, JUNIOR, JUNIOR, SENIOR, SOLO] and partners == [2, 3, 0, 1, -1]
    roles, partners = teams([2, 0, 3, 1], 4)  # 1+3, 2+4
    assert roles == [SENIOR, JUNIOR, SENIOR, JUNIOR] and partners == [1, 0, 3, 2]
    roles, partners = teams([5, 4, 3, 2, 1, 0], 6)  # 1+4, 2+5, 3+6
    assert partners == [3, 4, 5, 0, 1, 2] and roles == [JUNIOR] * 3 + [SENIOR] * 3
    roles, partners = teams([0, 1, 2, 3, 4, 5, 6], 7)  # 1+5, 2+6, 3+7, 4 solo
    assert partners == [4, 5, 6, -1, 0, 1, 2]
    assert roles == [SENIOR, SENIOR, SENIOR, SOLO, JUNIOR, JUNIOR, JUNIOR]


def test_standings_and_the_seed_tie_break():
    HARRY, STEVE = 0, 1
    before = standings([1, 2, 0, 10, 5], [0, 1, 2, 3, 4])
    assert before == [3, 4, STEVE, HARRY, 2]
    after = standings([7, 7, 3, 12, 6], before)
    assert after == [3, HARRY, STEVE, 4, 2]  # Harry stood worse, so he ranks ahead
    assert standings([0, 0, 0, 0], [0, 1, 2, 3]) == [3, 2, 1, 0]
    assert standings([5, 5, 5, 1], [2, 0, 1, 3]) == [1, 0, 2, 3]


def test_game_over():
    rules = FranksZooRules()  # 2 players at 19
    assert not game_over([19, 18, 0, 0, 0], rules)
    assert game_over([19, 19, 0, 0, 0], rules) and game_over([25, 30, 19, 3, 0], rules)
    assert game_over([19, 0, 0, 0, 0], FranksZooRules(end_players=1))
    assert not game_over([5, 5, 5, 5, 4], FranksZooRules(target=5, end_players=5))


def test_a_game_ends_when_end_players_reach_the_target():
    rng = np.random.default_rng(11)
    for n, target, end_players in ((4, 12, 2), (5, 19, 2), (5, 1, 1), (6, 15, 3), (7, 10, 1)):
        rules = FranksZooRules(players=n, target=target, end_players=end_players)
        match = play_match(dealing(rng, n), 1, rules, [Uniform(rules)] * n, rng)
        totals, order = [0] * n, list(range(n))
        for number, record in enumerate(match.deals):
            assert record.hand_no == number and record.scores == totals and record.order == order
            assert record.dealer == (1 if number == 0 else order[0])
            assert record.leader == (2 if number == 0 else order[-1])
            assert game_over(totals, rules) is False
            totals = [totals[s] + record.total[s] for s in range(n)]
            order = standings(totals, order)
        assert game_over(totals, rules)
        assert list(match.totals) == totals and match.winner == order[0]
        assert standings(list(match.totals), match.deals[-1].order) == order
    # target 1 for one player: the first hand ends the game, won by the first out.
    rules = FranksZooRules(players=5, target=1, end_players=1)
    match = play_match(dealing(rng, 5), 0, rules, [Uniform(rules)] * 5, rng)
    assert len(match.deals) == 1 and match.winner == match.deals[0].out_order[0]
    # The hand limit.
    rules = FranksZooRules(players=4, target=10_000)
    match = play_match(dealing(rng, 4), 0, rules, [Uniform(rules)] * 4, rng, max_hands=3)
    assert len(match.deals) == 3 and match.winner is None


# ---------------------------------------------------------------------------------------------------------
# Bad input and illegal moves


class Stubborn:
    spec = "stubborn"

    def decide(self, kind, view, legal, rng):
        return np.array([PASS])  # passes even on a lead


class BadShape:
    def decide(self, kind, view, legal, rng):
        return np.array([1, 2])


def test_illegal_actions_raise():
    rules = FranksZooRules(players=4)
    hands = random_deal(np.random.default_rng(0), 4, 3)
    with pytest.raises(IllegalAction, match=r"stubborn at seat 0 .*pass"):
        play_hand(hands, 0, 3, [0, 1, 2, 3], [0] * 4, rules, [Stubborn()] * 4)
    with pytest.raises(IllegalAction, match="BadShape at seat 0"):
        play_hand(hands, 0, 3, [0, 1, 2, 3], [0] * 4, rules, [BadShape()] * 4)


def test_bad_deals_are_refused():
    rules = FranksZooRules(players=4)
    hands = random_deal(np.random.default_rng(0), 4, 3)
    broken = [list(h) for h in hands]
    broken[0][WH] += 1
    with pytest.raises(DealsimError):
        play_hand(broken, 0, 3, [0, 1, 2, 3], [0] * 4, rules, [Stubborn()] * 4)
    with pytest.raises(DealsimError):
        play_hand(hands, 1, 3, [0, 1, 2, 3], [0] * 4, rules, [Stubborn()] * 4)  # seat 0 must deal
    with pytest.raises(DealsimError):
        play_match(lambda hand_no, dealer: deal(4, {0: "Mo"}, rest=1), 0, rules, [Stubborn()] * 4)


# ---------------------------------------------------------------------------------------------------------
# Random legal play


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_random_legal_play(n):
    rng = np.random.default_rng(100 + n)
    variants = [
        FranksZooRules(players=n, target=25),
        FranksZooRules(players=n, target=25, hedgehog_penalty="missing", exchange_cards=3, lion_min=1),
        FranksZooRules(players=n, target=25, help=False, exchange_cards=0),
    ]
    hands_played = asks = answers = 0
    while hands_played < 45:
        rules = variants[hands_played % 3]
        uniform = Uniform(rules)
        first_dealer = int(rng.integers(n))
        match = play_match(dealing(rng, n), first_dealer, rules, [uniform] * n, rng, max_hands=6)
        for record in match.deals:
            hands_played += 1
            check_record(record, rules)
            assert [sum(h) for h in record.hands] == deal_sizes(n, record.dealer)
            kinds = [kind for kind, _, _ in record.moves]
            if record.hand_no == 0:
                assert EXCHANGE not in kinds and ANSWER not in kinds
                assert not any(a >= ASK for kind, _, a in record.moves if kind == PLAY)
                assert record.exchanged == record.hands
            else:
                x = rules.exchange_cards
                assert kinds.count(EXCHANGE) == x * n
                assert [sum(h) for h in record.exchanged] == [
                    sum(record.hands[s]) - (x if record.roles[s] == SOLO else 0) for s in range(n)
                ]
                asks += sum(1 for kind, _, a in record.moves if kind == PLAY and a >= ASK)
                answers += sum(1 for kind, _, a in record.moves if kind == ANSWER and a > 0)
                if not rules.help:
                    assert ANSWER not in kinds
            assert sum(1 for kind, _, _ in record.moves if kind == ANSWER) == sum(
                1 for kind, _, a in record.moves if kind == PLAY and a >= ASK
            )
            for trick in record.tricks:
                laid = [0] * 13
                for _, action, reply in trick.plays:
                    if 1 <= action <= N_SETS:
                        row = SETS[action - 1]
                    elif action >= ASK and reply > 0:
                        row = SETS[reply - 1]
                    else:
                        continue
                    laid[int(row[0])] += int(row[1])
                    laid[CH] += int(row[2])
                    laid[MQ] += int(row[3])
                assert laid == trick.cards
    assert asks > 0 and answers > 0


def test_a_trace_names_every_card_in_full():
    """A played hand's text writes cards as animals, counted by kind ('2 whale, 1 mosquito'), never as
    the two-letter codes of the card legend."""
    rules = FranksZooRules(players=5)
    rng = np.random.default_rng(11)
    record = play_hand(
        random_deal(rng, 5, 0), 1, 0, [0, 1, 2, 3, 4], [0] * 5, rules, [Uniform(rules)] * 5, rng
    )
    text = format_hand(record)
    assert not set(SHORT) & set(re.findall(r"\b\w\w\b", text)), text
    dealt = [line for line in text.splitlines() if line.startswith("  seat 0")][0]
    assert dealt == f"  seat 0 (dealer): {cards_text(record.hands[0])} ({sum(record.hands[0])})"
    words = cards_text(record.hands[0]).split(", ")
    assert sum(int(w.split(" ", 1)[0]) for w in words) == sum(record.hands[0])
    assert [w.split(" ", 1)[1] for w in words] == [KINDS[k] for k in range(13) if record.hands[0][k]]
    assert "Exchange:" in text and ("gives seat" in text or "sets aside:" in text)
