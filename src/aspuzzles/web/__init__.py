"""The web board (``aspuzzles serve``): a page on 127.0.0.1 to play a puzzle, check it,
ask for hints and explanations, grade it and generate new ones, every answer the
engine's (``server`` serves, ``actions`` answers, ``page`` is the page)."""
