"""Reference searches in plain Python, written from the rules and sharing nothing with
the encodings: the tests hold the solver's counts and minima against them, and the
benchmark (``make bench``) times the solver against them."""
