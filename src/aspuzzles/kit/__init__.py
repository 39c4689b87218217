"""The shared kit: machinery that more than one puzzle builds on and that knows no puzzle
by name (as Tatham's ``misc.c``, ``grid.c`` and ``dsf.c`` serve his games).

- ``geometry``: lattices (the square grid, the triangular grid), cells, walks and
  symmetries;
- ``polyform``: shapes made of cells, their orientations and placements on a board;
- ``dice``: a board tiled by pieces around blocked cells that dice choose (the Genius
  Star and the Genius Square), with its sweep; ``dice_hints`` its hints, loaded when a
  hint is first asked for.
"""
