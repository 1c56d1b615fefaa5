"""``python -m blimpgen`` (and ``accelerate launch -m blimpgen eval ...``) runs the CLI."""

from blimpgen.cli import main

main()
