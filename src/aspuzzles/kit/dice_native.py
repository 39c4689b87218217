"""The compiled tiling search (its first tilings, and its count), compiled ahead of
time into an extension module (numba's ``pycc``), and the placement table every
compiled search reads.

Why: a sweep or a census that only asks each roll for a tiling spends under a second
on its whole work, and loading numba's compiler to run the search (:mod:`.dice_kernel`)
cost each process 0.6 s and some 120 MB before its first answer, even with the
machine code cached; a counting one held those 120 MB in every process. The same
functions built once, at install (``make`` runs ``python -m
aspuzzles.kit.dice_native``), load as a plain extension module with numpy alone. The
count's arrays are declared C-contiguous, as the table's are: declared of any layout,
the build counted 12% slower than numba's own (indexing through strides), so it
counts as fast (bench/NOTES-geniusstar.md).

The module is named after a digest of the kernel's source (``_dice_native_<digest>``),
so a changed kernel is never run from a stale build: the search then falls back to
numba. Where the build cannot be made (no C compiler, a numba without ``pycc``, a
read-only install) it says why in one line, and every search runs as before.
"""

from __future__ import annotations

import hashlib
import importlib
import sys
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PREFIX = "_dice_native_"


def digest() -> str:
    """What the build is named after: the kernel's source, which it compiles, and the
    types its functions are built for."""
    built = (HERE / "dice_kernel.py").read_bytes() + (SIGNATURE + COUNT_SIGNATURE).encode()
    return hashlib.sha256(built).hexdigest()[:16]


@cache
def native() -> Any:
    """The ahead-of-time build of the current kernel, or None where there is none
    (asked once a process; importing it costs a few milliseconds)."""
    name = PREFIX + digest()
    try:
        return importlib.import_module(f"{__package__}.{name}")
    except ImportError:
        return None


def placement_table(
    starts: list[int],
    masks: list[int],
    shapes: list[int],
    skips: list[int],
    rims: list[int],
    rim_cells: list[int],
    neighbours: list[int],
    sizes: list[int],
    radix: list[int],
    slots: int,
) -> tuple[object, ...]:
    """The arguments of the compiled ``search`` that describe the placements, as its
    arrays, and its memo of ``slots`` slots (a power of two; 1: no memo), empty (the
    layout: :mod:`.dice_kernel`)."""
    import numpy as np

    arrays = (starts, masks, shapes, skips, rims, rim_cells, neighbours, sizes, radix)
    return (*(np.array(values, np.int64) for values in arrays), np.zeros((slots, 2), np.int64))


def first_tilings(
    compiled: Any, frees: list[int], left: list[int], table: tuple[object, ...], steps: int
) -> tuple[Any, Any]:
    """The first tiling of each of many free-cell masks (0: none asked, answered 0) by
    ``compiled`` (this build or :mod:`.dice_kernel`'s), in one call: for each, 1
    (found), 0 (there is none: the search went through every placement) or -1 (its
    step bound reached), and its placements (a row each, indices into the table)."""
    import numpy as np

    chosen = np.zeros((len(frees), sum(left)), np.int64)
    answers = compiled.first_tilings(
        np.array(frees, np.int64), np.array(left, np.int64), *table, chosen, steps
    )
    return answers, chosen


def count_tilings(
    compiled: Any, free: int, left: list[int], table: tuple[object, ...], steps: int, most: int
) -> int:
    """How many tilings the ``free`` cells have (up to ``most``, if not 0), or
    ``UNDECIDED`` past ``steps`` placements, by ``compiled``'s ``search`` (this build
    or :mod:`.dice_kernel`'s)."""
    import numpy as np

    chosen = np.empty(sum(left), np.int64)
    return int(compiled.search(free, np.array(left, np.int64), *table, chosen, most, steps))


#: ``first_tilings``'s types: the frees, the pieces left and the table's nine arrays,
#: the memo (two columns), the tilings' rows and the step bound, all int64.
SIGNATURE = "i8[:](" + "i8[:], " * 11 + "i8[:,:], i8[:,:], i8)"
#: ``search``'s (a count): the free cells, the pieces left and the table's nine
#: arrays, the memo, the placements laid, the bound on tilings and the step bound;
#: the arrays C-contiguous (``[::1]``), as every caller's are.
COUNT_SIGNATURE = "i8(i8, " + "i8[::1], " * 10 + "i8[:,::1], i8[::1], i8, i8)"


def build(folder: Path = HERE) -> Path:
    """Compile the kernel's first-tiling search into ``folder`` (a few seconds), and
    remove the builds of earlier kernels there."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pycc's notice that it is to be replaced
        from numba.pycc import CC

        from . import dice_kernel

        compiler = CC(PREFIX + digest())
        compiler.output_dir = str(folder)
        compiler.target_cpu = "host"
        compiler.verbose = False
        compiler.export("first_tilings", SIGNATURE)(dice_kernel.first_tilings.py_func)
        compiler.export("search", COUNT_SIGNATURE)(dice_kernel.search.py_func)
        compiler.compile()
    built = next(folder.glob(PREFIX + digest() + ".*"))
    for old in folder.glob(PREFIX + "*"):
        if old != built:
            old.unlink(missing_ok=True)
    return built


def main(argv: list[str] | None = None) -> int:
    """``python -m aspuzzles.kit.dice_native``: build unless the current build is there."""
    argv = sys.argv[1:] if argv is None else argv
    if native() is not None and "--force" not in argv:
        return 0
    try:
        built = build()
    except Exception as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        print(
            f"aspuzzles: the search compiled ahead of time was not built ({reason}); "
            "sweeps load numba's compiler instead",
            file=sys.stderr,
        )
        return 0
    print(f"aspuzzles: built {built.name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
