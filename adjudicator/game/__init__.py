"""Whole games under a ruleset: exchanges, passes, end of game, final scores, clock, challenges.

Pure Python, no web framework. Every rule is a function of the ruleset's data (the TOML files in
`adjudicator/rulesets/`), so a federation's rule is changed in its file, not in code:

- `rules`: a typed view of a ruleset's rule sections;
- `racks`: rack text → tiles, rack values, "more Z tiles than the set has";
- `exchange`: may this player exchange now;
- `ending`: may one pass, and has the game ended;
- `overtime`: overtime penalties and losses on time;
- `challenge`: what a challenge ruling does to the scores and the turn;
- `final`: the end-of-game adjustment, the final scores and the winner;
- `kinds`: the kinds of record line and turn;
- `gcg`: the GCG record reader;
- `model`: the game state a record is walked through, and the one code that changes it (a
  turn, its counters, the end of the game, the results);
- `walk`: the one walk over a record (board and state together), `lines` for its non-move
  lines, `report` for what it reports (each turn, the game, the text report).
"""
