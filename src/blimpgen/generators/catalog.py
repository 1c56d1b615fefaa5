"""The catalogue: every spec and the lexicon one process works with, found and parsed once.

Every CLI command and every library entry point (:func:`~blimpgen.generators.generate.load_paradigms`,
:func:`~blimpgen.generators.generate.load_probe_suites`) goes through a :class:`Catalog`::

    catalog = Catalog.from_environment(paradigm_paths=["my_specs"], overlays=["extra.tsv"])
    catalog.names(ProbeSpec)                   # sorted UIDs (of one spec type, or all)
    catalog.get("neg_simp")                    # the LoadedSpec; UnknownNameError with did-you-mean
    catalog.build(["npi_present_1"])           # ready-to-sample sources (Paradigm, Probe)
    catalog.check()                            # every load and build problem, never raised

Where specs come from, in this order (a UID defined twice is an error naming both files):

1. the shipped specs (``grammar/paradigms/**``, ``grammar/probes/*``) and the shipped factorial
   designs (``grammar/designs/*``: paradigms with factors, kept apart: ``names`` leaves them
   out, so ``gen --all`` stays BLiMP's paradigms; ``design_names`` lists them, and ``get`` and
   ``build`` find them by UID), parsed once per process;
2. ``--paradigm-path`` folders (``paradigm_paths``), in the order given;
3. ``$BLIMPGEN_PARADIGM_PATH`` (``os.pathsep``-separated), in order;
4. folders of installed packages (the ``blimpgen.paradigms`` entry-point group).

The lexicon is the shipped one plus overlays: ``--lexicon-overlay`` files (``overlays``), then
``$BLIMPGEN_LEXICON_OVERLAY`` (see :mod:`blimpgen.vocab.overlays`); it is built on first use.
Each folder is walked once and each file parsed once, however many commands ask.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from blimpgen.errors import OptionError, SpecError, SpecErrors, UnknownNameError
from blimpgen.generators.paradigm import build_paradigm
from blimpgen.generators.probe import build_probe
from blimpgen.generators.source import Source
from blimpgen.grammar.discovery import (
    entry_point_paradigm_paths,
    environment_paradigm_paths,
    shipped_design_files,
    shipped_spec_files,
    spec_files,
)
from blimpgen.grammar.loader import LoadedSpec, load_documents, shipped_designs, shipped_documents
from blimpgen.grammar.probe_spec import ProbeSpec
from blimpgen.grammar.spec import ParadigmSpec, SpecBase
from blimpgen.records import Record
from blimpgen.vocab.lexicon import Lexicon
from blimpgen.vocab.overlays import load_lexicon_with_overlays, overlay_paths

# The source class each spec type builds into: one entry per item type.
SOURCE_BUILDERS: dict[type[SpecBase], Callable[[LoadedSpec, Lexicon, dict[str, Any] | None], Source[Record]]] = {
    ParadigmSpec: lambda loaded, lexicon, options: build_paradigm(loaded, lexicon),
    ProbeSpec: build_probe,
}
SourceT = TypeVar("SourceT")


def build_source(loaded: LoadedSpec, lexicon: Lexicon, options: dict[str, Any] | None = None) -> Source[Record]:
    """The source a spec builds into (options go to the spec types that take them).

    Raises:
        SpecErrors: for slot problems, each ``file:line``; OptionError for bad options.
    """
    return SOURCE_BUILDERS[type(loaded.spec)](loaded, lexicon, options)


@dataclass
class Checked:
    """One spec as ``check`` sees it: built into a source, or the problems that prevented it."""

    loaded: LoadedSpec
    source: Source[Record] | None
    problems: list[SpecError] = field(default_factory=list)


class Catalog:
    """The specs under some paths (plus the shipped ones) and a lexicon (plus overlays).

    Args:
        paths: folders (searched recursively) and files of specs, after the shipped ones.
        overlays: lexicon overlay files, in order.
        lexicon: use this lexicon instead of building one from ``overlays``.
    """

    def __init__(
        self, paths: Sequence[str | Path] = (), overlays: Sequence[str | Path] = (), lexicon: Lexicon | None = None
    ) -> None:
        unique: dict[Path, str] = {}
        for path in paths:  # a folder named twice (a flag and the environment) is read once
            unique.setdefault(Path(path).resolve(), str(path))
        self.paths = tuple(unique.values())
        self.overlays = tuple(str(p) for p in overlays)
        self._lexicon = lexicon
        self._specs: dict[str, LoadedSpec] | None = None
        self._designs: frozenset[str] = frozenset()
        self._problems: list[SpecError] = []

    @classmethod
    def from_environment(
        cls,
        paradigm_paths: Sequence[str | Path] = (),
        overlays: Sequence[str | Path] = (),
        environ: Mapping[str, str] | None = None,
        lexicon: Lexicon | None = None,
    ) -> Catalog:
        """A catalogue of the shipped specs plus every user source, in the order of the module docstring.

        Raises:
            SpecErrors: when an installed package's entry point cannot be loaded.
        """
        paths = tuple(paradigm_paths) + environment_paradigm_paths(environ) + entry_point_paradigm_paths()
        return cls(paths, overlay_paths(overlays, environ), lexicon)

    # ------------------------------------------------------------------ loading

    def _load(self) -> dict[str, LoadedSpec]:
        if self._specs is None:
            shipped, problems = shipped_documents()
            designs, design_problems = shipped_designs()
            self._problems = list(problems) + list(design_problems)
            self._specs = dict(shipped)
            for uid, loaded in designs.items():
                if uid in self._specs:
                    self._problems.append(
                        loaded.error(("uid",), f"duplicate UID {uid!r} (also in {self._specs[uid].file})")
                    )
                else:
                    self._specs[uid] = loaded
            self._designs = frozenset(designs)
            for path in map(Path, self.paths):
                if path.is_dir():
                    files = spec_files(path)
                elif os.path.lexists(path):
                    files = [(str(path), path)]  # a file (reading it says what is wrong with it)
                else:
                    self._problems.append(SpecError("paradigm path is not a folder", str(path)))
                    continue
                load_documents(files, self._problems, self._specs, path if path.is_dir() else path.parent)
        return self._specs

    def _specs_or_raise(self) -> dict[str, LoadedSpec]:
        specs = self._load()
        if self._problems:
            raise SpecErrors(self._problems)
        return specs

    @property
    def lexicon(self) -> Lexicon:
        """The shipped lexicon plus the overlays (built on first use).

        Raises:
            SpecErrors: every overlay problem, each ``file:line``.
        """
        if self._lexicon is None:
            self._lexicon = load_lexicon_with_overlays(self.overlays)
        return self._lexicon

    # ------------------------------------------------------------------ queries

    def names(self, spec_type: type[SpecBase] | None = None) -> list[str]:
        """UIDs of every spec (of ``spec_type`` only, when given), sorted; the shipped factorial
        designs are left out (:meth:`design_names`).

        Raises:
            SpecErrors: every problem of every spec file, when there is any.
        """
        return sorted(
            uid
            for uid, loaded in self._specs_or_raise().items()
            if uid not in self._designs and (spec_type is None or isinstance(loaded.spec, spec_type))
        )

    def design_names(self) -> list[str]:
        """UIDs of the shipped factorial designs (``grammar/designs/``), sorted.

        Raises:
            SpecErrors: every problem of every spec file, when there is any.
        """
        self._specs_or_raise()
        return sorted(self._designs)

    def designs(self) -> list[LoadedSpec]:
        """The shipped factorial designs, sorted by UID."""
        specs = self._specs_or_raise()
        return [specs[uid] for uid in self.design_names()]

    def specs(self, spec_type: type[SpecBase] | None = None) -> list[LoadedSpec]:
        """Every loaded spec (of ``spec_type`` only, when given), sorted by UID."""
        specs = self._specs_or_raise()
        return [specs[uid] for uid in self.names(spec_type)]

    def get(
        self, uid: str, spec_type: type[SpecBase] | None = None, purpose: str = "", noun: str | None = None
    ) -> LoadedSpec:
        """The spec called ``uid`` (which must be a ``spec_type``, when given).

        Args:
            uid: the spec's UID.
            spec_type: the spec class the caller needs (any when None).
            purpose: what needs that type, appended to the wrong-type error (``"; audit ..."``).
            noun: how an unknown name is described (default: the type's noun, or every type's).

        Raises:
            UnknownNameError: for an unknown UID, with did-you-mean.
            OptionError: for a spec of another type.
        """
        specs = self._specs_or_raise()
        if uid not in specs:
            if noun is None:
                noun = spec_type.noun if spec_type is not None else " or ".join(t.noun for t in SOURCE_BUILDERS)
            designs = [name for name in self._designs if spec_type is None or isinstance(specs[name].spec, spec_type)]
            raise UnknownNameError(noun, uid, sorted(self.names(spec_type) + designs))
        loaded = specs[uid]
        if spec_type is not None and not isinstance(loaded.spec, spec_type):
            raise OptionError(f"{uid} is a {loaded.spec.noun}, not a {spec_type.noun}{purpose}")
        return loaded

    def build(
        self,
        uids: Sequence[str] | None = None,
        spec_type: type[SpecBase] | None = None,
        options: dict[str, Any] | None = None,
        purpose: str = "",
    ) -> list[Source[Record]]:
        """Sources for ``uids`` in the order given (every spec of ``spec_type``, sorted, when None).

        Raises:
            SpecErrors: for invalid specs; UnknownNameError / OptionError as :meth:`get`.
        """
        uids = self.names(spec_type) if uids is None else list(uids)
        loaded = [self.get(uid, spec_type, purpose) for uid in uids]
        return [build_source(spec, self.lexicon, options) for spec in loaded]

    def inputs(self) -> dict[str, list[str]]:
        """The files this catalogue reads, by the option that names them (for refusing outputs onto them)."""
        shipped = set(shipped_documents()[0])
        specs = self._load()
        return {
            "--lexicon-overlay": list(self.overlays),
            "--paradigm-path": [loaded.file for uid, loaded in specs.items() if uid not in shipped],
        }

    def takes_options(self, uids: Sequence[str]) -> bool:
        """Whether any of ``uids`` is of a spec type that takes ``--option`` and ``--control``."""
        return any(self.get(uid).spec.takes_options for uid in uids)

    def check(self, files: Sequence[str] | None = None) -> tuple[list[SpecError], list[Checked]]:
        """Every problem of loading, then each target spec built (never raises for a spec).

        Args:
            files: display names of the spec files to build (the shipped ones when None).

        Returns:
            The load problems (every file, duplicate UIDs included) and, in file order, each
            target spec with its source or its build problems.
        """
        specs = self._load()
        targets = (
            set(files)
            if files is not None
            else {display for display, _ in shipped_spec_files() + shipped_design_files()}
        )
        lexicon = self.lexicon  # overlay problems are raised, not blamed on a spec
        checked = []
        for loaded in specs.values():
            if loaded.file not in targets:
                continue
            try:
                checked.append(Checked(loaded, build_source(loaded, lexicon)))
            except SpecErrors as exc:
                checked.append(Checked(loaded, None, list(exc.errors)))
        return list(self._problems), checked


def sources_as(sources: Sequence[Source[Record]], source_type: type[SourceT]) -> list[SourceT]:
    """``sources`` as the class their spec type builds into (``Paradigm`` for a
    ``build(uids, ParadigmSpec)``), each checked.

    Raises:
        OptionError: for a source of another class.
    """
    out: list[SourceT] = []
    for source in sources:
        if not isinstance(source, source_type):
            raise OptionError(f"{source.uid} is a {type(source).__name__}, not a {source_type.__name__}")
        out.append(source)
    return out
