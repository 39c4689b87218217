"""``python -m aspuzzles`` is the ``aspuzzles`` command."""

from .entry import main

raise SystemExit(main())
