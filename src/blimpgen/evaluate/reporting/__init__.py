"""Presentation of results: text tables, CSV, PNG figures, and ``blimpgen report`` over result folders.

Nothing here is imported by the package on import (figures import matplotlib when drawn).
"""
