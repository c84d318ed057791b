"""Errors a user can cause. The command line prints them as one line and exits non-zero."""


class DealsimError(Exception):
    """Bad input: an unknown rule, a bad value, an unknown strategy, a malformed hand."""


class IllegalAction(DealsimError):
    """A strategy chose an action outside the legal mask. The engine never repairs it."""
