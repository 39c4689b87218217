"""``python -m aspuzzles`` is the ``aspuzzles`` command."""

from .cli import main

raise SystemExit(main())
