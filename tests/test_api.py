"""The Python API a notebook uses: load, generate, and results that show themselves."""

from __future__ import annotations

import pytest

import aspuzzles
from aspuzzles import InputError


def test_a_loaded_instance_is_drawn_unsolved_with_what_is_given():
    instance = aspuzzles.load("haunted", "seed-4x4.txt")
    assert repr(instance) == "<haunted seed-4x4.txt: 4x4>"
    board = str(instance).splitlines()
    assert board[0] == "haunted seed-4x4.txt: 4x4"
    assert board[1] == "ghosts 2, vampires 4, zombies 3"
    assert board[3].split() == ["2", ".", ".", ".", "/", "1"]
    assert instance._repr_svg_().startswith("<svg")


def test_an_instance_the_puzzle_cannot_draw_unsolved_shows_its_summary():
    instance = aspuzzles.load("tiles")
    assert str(instance) == "tiles seed-big-cats-3x3.txt: animal 3x3"
    assert instance._repr_svg_() is None


def test_generate_takes_the_commands_options_by_name():
    text = aspuzzles.generate("template", size=5, givens=8, seed=1)
    assert text.startswith("# aspuzzles generate template --size 5 --givens 8 --seed 1\n")
    assert text == aspuzzles.generate("template", size=5, givens=8, seed=1)
    with pytest.raises(InputError, match="generate template has no option colour"):
        aspuzzles.generate("template", colour=3)


def test_results_and_solutions_have_short_reprs():
    result = aspuzzles.solve("template", unique=True)
    assert repr(result).startswith("<Result template small-4x4.txt: solved, verdict unique")
    assert repr(result.solution) == (
        "<template solution: .text() draws it, .to_dict() gives its data>"
    )
