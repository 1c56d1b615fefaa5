"""A small registry of named implementations (paradigm kinds, scorers).

Names may carry a version (``dp.v1``); lookups accept the bare name too and resolve to the
newest version. Targets may be registered lazily as ``"module:attr"`` strings, and third
parties add entries through an entry-point group without touching blimpgen.

Version suffixes are parsed here and nowhere else: :func:`base_name` strips one,
:meth:`Registry.resolve` turns a bare name into the versioned one it means, and
:meth:`Registry.find` says which versioned name an object is registered under (what results
record as provenance).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from importlib import metadata
from typing import Generic, TypeVar, cast

from blimpgen.errors import UnknownNameError

T = TypeVar("T")


class Registry(Generic[T]):
    """Map names to objects (classes or factories), optionally loaded lazily.

    Args:
        name: what the registry holds, for messages ("scorer").
        entry_point_group: importlib entry-point group searched on first miss.
    """

    def __init__(self, name: str, entry_point_group: str | None = None) -> None:
        self.name = name
        self.entry_point_group = entry_point_group
        self._items: dict[str, T | str] = {}
        self._entry_points_loaded = entry_point_group is None

    def register(self, name: str, target: T | str | None = None) -> Callable[[T], T] | T | str:
        """Register ``target`` under ``name``; without a target, act as a decorator.

        Raises:
            ValueError: when ``name`` is already bound to a different target.
        """
        if target is None:

            def decorator(obj: T) -> T:
                self.register(name, obj)
                return obj

            return decorator
        old = self._items.get(name)
        if old is not None and old is not target and old != target:
            if not (
                isinstance(old, str)
                and not isinstance(target, str)
                and old == f"{target.__module__}:{getattr(target, '__qualname__', '')}"
            ):
                raise ValueError(f"{self.name} {name!r} is already registered to {old!r}")
        self._items[name] = target
        return target

    def _load_entry_points(self) -> None:
        if self._entry_points_loaded or self.entry_point_group is None:
            return
        self._entry_points_loaded = True
        for ep in metadata.entry_points(group=self.entry_point_group):
            self._items.setdefault(ep.name, ep.value)

    def _resolve_name(self, name: str) -> str | None:
        if name in self._items:
            return name
        versions = sorted((k for k in self._items if base_name(k) == name), key=_version_key)
        return versions[-1] if versions else None

    def resolve(self, name: str) -> str:
        """The registered name ``name`` stands for: itself, or the newest ``name.vN`` for a bare name.

        Raises:
            UnknownNameError: listing available names and close matches.
        """
        key = self._resolve_name(name)
        if key is None:
            self._load_entry_points()
            key = self._resolve_name(name)
        if key is None:
            raise UnknownNameError(self.name, name, self.names())
        return key

    def find(self, obj: object) -> str | None:
        """The newest name ``obj`` is registered under, or None (a lazy target is compared by its
        ``module:qualname`` without being imported)."""
        path = f"{getattr(obj, '__module__', '')}:{getattr(obj, '__qualname__', '')}"
        self._load_entry_points()
        names = [k for k, target in self._items.items() if target is obj or target == path]
        return max(names, key=_version_key) if names else None

    def get(self, name: str) -> T:
        """Return the object registered as ``name`` (or the newest ``name.vN``).

        Raises:
            UnknownNameError: listing available names and close matches.
        """
        key = self.resolve(name)
        target = self._items[key]
        if isinstance(target, str):
            module, _, attr = target.partition(":")
            obj: object = importlib.import_module(module)
            for part in attr.split("."):
                obj = getattr(obj, part)
            # A lazy "module:attr" names a T by the promise of whoever registered it; nothing
            # checks it here (the caller validates what it gets, as for any registered target).
            loaded = cast(T, obj)
            self._items[key] = loaded
            return loaded
        return target

    def names(self) -> list[str]:
        """All registered names, sorted."""
        self._load_entry_points()
        return sorted(self._items)

    def __contains__(self, name: str) -> bool:
        return self._resolve_name(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())


def base_name(name: str) -> str:
    """``name`` without its version suffix: ``dp.v1`` -> ``dp``; a name without one is returned as is."""
    base, _, version = name.rpartition(".v")
    return base if base and version.isdigit() else name


def _version_key(name: str) -> tuple[str, int]:
    base, _, version = name.rpartition(".v")
    return (base, int(version)) if base and version.isdigit() else (name, 0)
