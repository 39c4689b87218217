"""The ways a planning job is searched, in a module of their own: the command line
offers them without loading the driver (and clingo) to build its help, and a plan
answered in Python before clingo starts needs no more of the planning machinery."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..strategy import Incremental

#: How a planning job is searched: ``both`` climbs the budgets in one process while
#: another comes down from the top; ``split`` climbs in two processes, each over half
#: the first moves; ``ascending`` and ``descending`` are one process each.
BOTH, SPLIT, ASCENDING, DESCENDING = "both", "split", "ascending", "descending"
PLAN_SEARCHES = (BOTH, SPLIT, ASCENDING, DESCENDING)
#: The default: on the capture game boards it proves as many minima as ``both`` with
#: half the worst time (2026-11-24 (32afed4): 16 s against 27 s), since the quick plan is
#: usually the minimum and the two shares then divide refuting the budget below it
#: instead of both refuting it whole. An encoding that does not split searches ``both``.
DEFAULT_PLAN_SEARCH = SPLIT


def check_plan_search(name: str) -> None:
    """Refuse a plan search the driver does not know (asked of every solve, planning or
    not, so that a typo is never silently ignored)."""
    if name not in PLAN_SEARCHES:
        from ..errors import InputError

        raise InputError(f"plan search must be one of {', '.join(PLAN_SEARCHES)}")


def plan_searches(
    plan: Incremental | None, plan_search: str, wanted: int, threads: int
) -> list[dict[str, Any]]:
    """Which searches to run, one process each, as changes to the job. Only a puzzle with
    monotone budgets can be searched from the top (and split: its shares report plans);
    only one whose encoding splits can be split (``split`` is run as ``both`` where it
    does not: the default must serve every planning puzzle). Both are for one plan:
    counting plans or deciding uniqueness needs the minimum first, which one climbing
    search finds. Asked for more threads, one climbing search gets them all."""
    from ..errors import InputError
    from ..strategy import UNBOUNDED

    check_plan_search(plan_search)
    climb: dict[str, Any] = {}
    if plan is None or plan_search == ASCENDING:
        return [climb]
    if wanted != 1 and plan_search == DESCENDING:
        raise InputError(
            "a descending plan search finds one plan: it cannot count plans or decide uniqueness"
        )
    if wanted != 1 or threads > 1 or plan.step_atom is None:
        return [climb]
    if plan.max_steps >= UNBOUNDED and plan_search == DESCENDING:
        raise InputError("a descending plan search needs a last budget to come down from")
    descend = {"descending": True}
    if plan_search == DESCENDING:
        return [descend]
    if plan_search == SPLIT and plan.splits:
        return [{"part": (0, 2)}, {"part": (1, 2)}]
    return [climb] if plan.max_steps >= UNBOUNDED else [climb, descend]
