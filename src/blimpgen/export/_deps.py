"""Import optional dependencies with an install hint instead of a traceback."""

from __future__ import annotations

import importlib
from types import ModuleType

from blimpgen.errors import MissingDependencyError


def require(module: str, extra: str = "export") -> ModuleType:
    """Import ``module`` or explain which extra installs it.

    Raises:
        MissingDependencyError: when the module is not installed (naming the extra to install).
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(
            f"{module} is not installed ({exc}); install it with: pip install 'blimpgen[{extra}]'"
        ) from None
