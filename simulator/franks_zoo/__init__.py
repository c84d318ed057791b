"""Frank's Zoo: a climbing card game for 4-7 players, teams from the second hand
(`shared/rules/franks-zoo.md`)."""
