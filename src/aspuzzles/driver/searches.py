"""The names of the ways a planning job is searched, in a module of their own: the
command line offers them without loading the driver (and clingo) to build its help."""

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
