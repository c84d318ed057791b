"""The Frank's Zoo expert's playouts: the rest of many hands played by the heuristic at every seat, in one
compiled loop.

Each step of the loop does what `simulator.driver.play` does with `strategies.franks_zoo.Heuristic` (its
defaults) on every seat: the legal actions of every pending play or answer (`kernels.legal_words`), the
heuristic's choice on them (`kernels.heuristic_play`, `kernels.heuristic_answer`, the kernels of its
`decide_packed`) and their application (`kernels.apply_rows`), with no Python between steps. The exchange,
a few decisions a hand, goes through the heuristic's own `decide` first. A test plays the same hands both
ways and compares them.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from numba import njit

from simulator.franks_zoo import cards as C
from simulator.franks_zoo import core, kernels, requests
from simulator.franks_zoo.core import HandState
from simulator.franks_zoo.rules import FranksZooRules
from simulator.franks_zoo.view import ANSWER, ASK, EXCHANGE, N_ACTIONS, PLAY
from strategies import franks_zoo as Z

_PLAY_WORDS = -(-N_ACTIONS[PLAY] // 64)
_ANSWER_WORDS = -(-N_ACTIONS[ANSWER] // 64)


@njit(cache=True)
def _play_out(  # noqa: PLR0913, PLR0917 - compiled: it takes the batch state's arrays one by one
    help_rule,
    exchange_cards,
    legal_tables,
    apply_tables,
    play_tables,
    answer_tables,
    cash_groups,
    ask,
    out_score,
    strand_score,
    count_tables,
    hands,
    held,
    sets_held,
    role,
    partner,
    schedule,
    ex_step,
    given,
    received,
    phase,
    turn,
    first_leader,
    lead,
    table,
    table_player,
    passes,
    asked,
    asker,
    helped,
    help_won,
    trick_cards,
    played,
    taken,
    place,
    n_out,
    moves,
    n_moves,
):
    layable, askable, part_bits, answer_ok, set_kind, add_real, add_cham, add_mosq = legal_tables
    set_cards, set_size, partial_cards, set_bits = apply_tables
    deck, predators, set_tab, k_of_set, sz, ch, ask_tab, pk, psz, pch = play_tables
    a_kind, a_real, a_ch, a_mq, a_psz, value, weights = answer_tables
    counting, completions, c_real, c_ch, c_mq, odds = count_tables
    n = phase.shape[0]
    while True:
        pending = 0
        for kind in (PLAY, ANSWER):
            count = 0
            for r in range(n):
                if phase[r] == kind:
                    count += 1
            if count == 0:
                continue
            pending += count
            ri = np.empty(count, np.intp)
            j = 0
            for r in range(n):
                if phase[r] == kind:
                    ri[j] = r
                    j += 1
            n_words = _PLAY_WORDS if kind == PLAY else _ANSWER_WORDS
            words = kernels.legal_words(
                kind,
                ri,
                n_words,
                help_rule,
                ASK,
                hands,
                held,
                sets_held,
                turn,
                table,
                role,
                partner,
                asked,
                layable,
                askable,
                part_bits,
                answer_ok,
                set_kind,
                add_real,
                add_cham,
                add_mosq,
            )
            hand = np.empty((count, 13), np.int8)
            for i in range(count):
                r = ri[i]
                seat = turn[r]
                for k in range(13):
                    hand[i, k] = hands[r, seat, k]
            if kind == PLAY:
                my_held = np.empty(count, np.int8)
                my_partner = np.empty(count, np.int8)
                senior_held = np.empty(count, np.int8)
                for i in range(count):
                    r = ri[i]
                    my_held[i] = held[r, turn[r]]
                    my_partner[i] = partner[r, turn[r]]
                    senior_held[i] = held[r, max(partner[r, turn[r]], 0)]
                actions = kernels.heuristic_play(
                    words,
                    hand,
                    my_held,
                    played[ri],
                    table[ri],
                    my_partner,
                    table_player[ri],
                    deck,
                    predators,
                    set_tab,
                    k_of_set,
                    sz,
                    ch,
                    ask_tab,
                    pk,
                    psz,
                    pch,
                    cash_groups,
                    ask,
                    out_score,
                    strand_score,
                    counting,
                    senior_held,
                    completions,
                    c_real,
                    c_ch,
                    c_mq,
                    odds,
                )
            else:
                junior_held = np.empty(count, np.int8)
                for i in range(count):
                    r = ri[i]
                    junior_held[i] = held[r, max(partner[r, turn[r]], 0)]
                actions = kernels.heuristic_answer(
                    words, hand, asked[ri], junior_held, a_kind, a_real, a_ch, a_mq, a_psz, value, weights
                )
            kernels.apply_rows(
                kind,
                ri,
                actions,
                exchange_cards,
                ASK,
                set_cards,
                set_size,
                partial_cards,
                set_bits,
                hands,
                held,
                sets_held,
                role,
                partner,
                schedule,
                ex_step,
                given,
                received,
                phase,
                turn,
                first_leader,
                lead,
                table,
                table_player,
                passes,
                asked,
                asker,
                helped,
                help_won,
                trick_cards,
                played,
                taken,
                place,
                n_out,
                moves,
                n_moves,
            )
        if pending == 0:
            return


@cache
def _tables() -> tuple[Any, ...]:
    """The lookup tables the kernels read, as the core and the default heuristic pass them."""
    h = Z.Heuristic()
    legal = (
        core._LAYABLE_WORDS,
        core._ASKABLE_WORDS,
        core._PART_BITS,
        core._ANSWER_OK,
        core._SET_KIND,
        core._ADD_REAL,
        core._ADD_CHAM,
        core._ADD_MOSQ,
    )
    apply = (C.SET_CARDS, C.SET_SIZE, C.PARTIAL_CARDS, core._SET_BITS)
    play = (
        Z._DECK,
        Z._PREDATORS,
        Z._set_table(h),
        Z._K,
        Z._SZ,
        Z._CH,
        Z._ask_table(h),
        Z._PK,
        Z._PSZ,
        Z._PCH,
    )
    weights = np.array([h.answer_base, h.whole, h.split, h.chameleon, h.keep, Z._OUT, Z._STRAND])
    answer = (Z._K, Z._ADD_REAL, Z._ADD_CH, Z._ADD_MQ, Z._PSZ, Z.VALUE, weights)
    counting = (
        h.ask and h.count,
        requests.COMPLETIONS,
        Z._ADD_REAL,
        Z._ADD_CH,
        Z._ADD_MQ,
        requests.odds_table(),
    )
    return legal, apply, play, answer, counting, h


def play_out(state: HandState, rules: FranksZooRules) -> HandState:
    """Every row of `state` played to the end of its hand by the default heuristic at every seat, in place:
    the same moves as `driver.play` with `Heuristic()` on every seat. The move log is widened to the most
    moves a hand can take first (the compiled loop cannot widen it)."""
    legal, apply, play, answer, counting, h = _tables()
    rng = np.random.default_rng(0)  # the heuristic does not read it
    while True:  # the exchange: a few steps, the heuristic's own decide
        rows = np.flatnonzero(state.phase == EXCHANGE)
        if not len(rows):
            break
        view, mask = core.inputs(state, rows, EXCHANGE, rules)
        core.apply(state, rows, EXCHANGE, np.asarray(h.decide(EXCHANGE, view, mask, rng), np.intp), rules)
    state.moves = core._widen(state.moves, core.max_moves(rules))
    s = state
    _play_out(
        rules.help,
        rules.exchange_cards,
        legal,
        apply,
        play,
        answer,
        h.cash_groups,
        h.ask,
        Z._OUT,
        Z._STRAND,
        counting,
        s.hands,
        s.held,
        s.sets_held,
        s.role,
        s.partner,
        s.schedule,
        s.ex_step,
        s.given,
        s.received,
        s.phase,
        s.turn,
        s.first_leader,
        s.leader,
        s.table,
        s.table_player,
        s.passes,
        s.asked,
        s.asker,
        s.helped,
        s.help_won,
        s.trick_cards,
        s.played,
        s.taken,
        s.place,
        s.n_out,
        s.moves,
        s.n_moves,
    )
    return state
