"""Forty-two's declarations in words, whichever way a table holds them: a code 0-10 (the TRUMP action:
pips 0-6, then doubles, no-trump, nello, sevens; `simulator.fortytwo.view.DECLARATION_NAMES`) or its
name already."""

from __future__ import annotations

from simulator.fortytwo.view import DECLARATION_NAMES


def trump_name(value: object) -> str:
    """The declaration's name: "blanks" for 0 (or "0"), "no-trump" for 8; a name passes through."""
    text = str(value)
    if text.lstrip("-").isdigit():
        return DECLARATION_NAMES[int(text)]
    if text not in DECLARATION_NAMES:
        raise ValueError(f"not a Forty-two declaration: {value!r}")
    return text


def trump_code(value: object) -> int:
    """The declaration's code 0-10, from a code or a name."""
    return DECLARATION_NAMES.index(trump_name(value))
