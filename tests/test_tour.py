"""The notebook tour runs from top to bottom: every cell, in a fresh kernel."""

from __future__ import annotations

import nbformat
import pytest
from nbclient import NotebookClient

from .conftest import ROOT

TOUR = ROOT / "docs" / "tour.ipynb"


def test_the_tour_is_stored_without_outputs():
    notebook = nbformat.read(TOUR, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code and all(not cell.outputs and cell.execution_count is None for cell in code)


@pytest.mark.slow
def test_the_tour_runs_and_draws_every_puzzle():
    notebook = nbformat.read(TOUR, as_version=4)
    NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    ).execute()
    shown = [
        output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs
    ]
    assert not [output for output in shown if output.output_type == "error"]
    drawn = [
        output
        for output in shown
        if "image/svg+xml" in output.get("data", {})
        or "<svg" in output.get("data", {}).get("text/html", "")
    ]
    assert len(drawn) >= 6  # haunted, cake, tiles, the star, the square, the bare grid
    texts = "".join(output.get("text", "") for output in shown)
    assert "ghosts 2, vampires 4, zombies 3" in texts
