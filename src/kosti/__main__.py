"""``python -m kosti``: the same as the ``kosti`` command."""

from kosti.cli import main

if __name__ == "__main__":
    main()
