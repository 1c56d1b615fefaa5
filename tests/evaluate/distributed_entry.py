"""Entry point for the two-process test: ``accelerate launch ... distributed_entry.py ARGS`` runs ``blimpgen``."""

import sys

from blimpgen.cli import main

if __name__ == "__main__":
    main(sys.argv[1:])
