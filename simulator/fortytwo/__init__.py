"""Forty-two: dominoes for four in two partnerships (`shared/rules/forty-two.md`)."""
