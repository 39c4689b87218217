"""``python -m aspuzzles`` is the ``aspuzzles`` command."""

from .entry import command

if __name__ == "__main__":  # not when a spawned worker process imports it
    command()
