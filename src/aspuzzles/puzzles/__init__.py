"""One module per puzzle; each defines ``PUZZLE``, an instance of :class:`Puzzle`."""
