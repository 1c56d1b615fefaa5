"""Loading specs from YAML with precise ``file:line: key: message`` errors: one loader for every type.

Steps: ``_yaml.load_yaml_text`` (safe, duplicate keys rejected, key-path -> line table) ->
named formulas expanded (``@name``, from ``formulas:`` and ``include:``d fragments: see
:mod:`blimpgen.grammar.fragments`) -> a paradigm's ``factors:`` rewritten into ``branches:``
(:mod:`blimpgen.grammar.factors`) -> :data:`SpecDocument`, a pydantic union discriminated by
``records.types.spec_tag`` (a document with ``item:`` is a probe suite, otherwise a paradigm;
every pydantic error mapped to its line) -> the spec's own ``problems`` (templates, cross-key
rules). All errors of a file are collected before raising. :func:`load_documents` applies the
UID rules (unique; equal to the file name) to many files at once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import Discriminator, Tag, TypeAdapter, ValidationError

from blimpgen._io import decode
from blimpgen._yaml import KeyPath, LineTable, load_yaml_text
from blimpgen.errors import OptionError, SpecError, SpecErrors, did_you_mean
from blimpgen.grammar.discovery import read_spec_text, shipped_design_files, shipped_spec_files, spec_files
from blimpgen.grammar.factors import Design, expand_factors
from blimpgen.grammar.fragments import fragment_folders, resolve_formulas
from blimpgen.grammar.probe_spec import ProbeSpec
from blimpgen.grammar.spec import ParadigmSpec, SpecBase
from blimpgen.records.types import PARADIGM_TAG, PROBE_TAG, spec_tag

SPEC_TYPES: dict[str, type[SpecBase]] = {PARADIGM_TAG: ParadigmSpec, PROBE_TAG: ProbeSpec}
SpecDocument = Annotated[
    Annotated[ParadigmSpec, Tag(PARADIGM_TAG)] | Annotated[ProbeSpec, Tag(PROBE_TAG)], Discriminator(spec_tag)
]
_DOCUMENT = TypeAdapter(SpecDocument)
SpecT = TypeVar("SpecT", bound=SpecBase)


@dataclass(frozen=True)
class LoadedSpec:
    """A validated spec (any type) with where it came from.

    Attributes:
        spec: the validated model (:class:`ParadigmSpec` or :class:`ProbeSpec`).
        file: display path of the YAML file.
        lines: key path -> line table, for errors raised by later layers.
        sha: short hash of the file's bytes and of the fragments it includes (provenance).
        design: a paradigm's factors and the levels of each cell (branch), when it declares
            ``factors:`` (:mod:`blimpgen.grammar.factors`); None otherwise.
    """

    spec: SpecBase
    file: str
    lines: LineTable = field(repr=False)
    sha: str
    design: Design | None = None

    @property
    def uid(self) -> str:
        """The spec's UID."""
        return self.spec.uid

    def error(self, path: KeyPath, message: str) -> SpecError:
        """A :class:`SpecError` pointing at ``path`` in this spec's file."""
        return self.lines.error(path, message)

    def spec_as(self, spec_type: type[SpecT]) -> SpecT:
        """The spec, which must be a ``spec_type`` (what a source class is built from).

        Raises:
            OptionError: for a spec of another type (a probe suite given where a paradigm is needed).
        """
        if not isinstance(self.spec, spec_type):
            raise OptionError(f"{self.uid} is a {self.spec.noun}, not a {spec_type.noun}")
        return self.spec


def parse_spec(text: str | bytes, file: str, folders: list[Any] | None = None) -> LoadedSpec:
    """Validate one spec document of any type (text, or UTF-8 bytes).

    Args:
        text: the YAML text.
        file: the name errors give it.
        folders: where ``include:`` looks for fragments (default: the shipped ``grammar/`` folder;
            see :func:`blimpgen.grammar.fragments.fragment_folders`).

    Raises:
        SpecErrors: every problem found, each ``file:line: key: message``.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = decode(bytes(text), file, SpecError)
        except SpecError as exc:
            raise SpecErrors([exc]) from None
    if not isinstance(text, str):
        raise SpecErrors([SpecError(f"a spec is text, not {type(text).__name__}", file)])
    raw, table = load_yaml_text(text, file)
    if not isinstance(raw, dict):
        raise SpecErrors([SpecError("a paradigm spec must be a YAML mapping (uid: ..., slots: ...)", file, 1)])
    fragments, errors = resolve_formulas(raw, table, fragment_folders() if folders is None else folders)
    design, more = expand_factors(raw, table) if spec_tag(raw) == PARADIGM_TAG else (None, [])
    errors += more
    if errors:
        raise SpecErrors(errors)
    spec_type = SPEC_TYPES[spec_tag(raw)]
    try:
        spec = _DOCUMENT.validate_python(raw)
    except ValidationError as exc:
        raise SpecErrors(pydantic_errors(exc, table, spec_type) + spec_type.raw_problems(raw, table)) from None
    errors = spec.problems(table)
    if errors:
        raise SpecErrors(errors)
    digest = hashlib.sha256(text.encode("utf-8"))
    for fragment in fragments:
        digest.update(b"\0" + fragment.text.encode("utf-8"))
    return LoadedSpec(spec, file, table, digest.hexdigest()[:12], design)


def pydantic_errors(exc: ValidationError, table: LineTable, spec_type: type[SpecBase]) -> list[SpecError]:
    """Every pydantic error of a spec document as ``file:line: key: message``.

    Locations inside the union start with the type's tag, which is dropped; unknown keys get
    did-you-mean from ``spec_type.known_keys``, and values outside a Literal the type's own wording.
    """
    out = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        if loc and loc[0] in SPEC_TYPES:
            loc = loc[1:]
        message = err["msg"]
        if err["type"] == "extra_forbidden":
            message = f"unknown key {loc[-1]!r}{did_you_mean(str(loc[-1]), spec_type.known_keys(loc))}"
        elif err["type"] == "missing":
            message = f"missing required key {loc[-1]!r}"
        elif err["type"] == "literal_error" and loc in spec_type.literal_messages:
            message = spec_type.literal_messages[loc]
        elif message.startswith("Value error, "):
            message = message[len("Value error, ") :]
        if isinstance(err.get("input"), bool) and "string" in message:
            message += " (YAML reads yes/no/on/off/true/false as booleans: quote the word)"
        out.append(table.error(loc, message))
    return out


def load_spec_file(path: Path | str, display: str | None = None) -> LoadedSpec:
    """Read and validate one spec file (its fragments looked for beside it, then shipped).

    Raises:
        SpecErrors: every problem, each ``file:line: key: message``.
    """
    path = Path(path)
    name = display or str(path)
    try:
        text = read_spec_text(path, name)
    except SpecError as exc:
        raise SpecErrors([exc]) from None
    return parse_spec(text, name, fragment_folders(path))


def load_documents(
    files: Iterable[tuple[str, Any]],
    problems: list[SpecError],
    specs: dict[str, LoadedSpec] | None = None,
    root: Any = None,
) -> dict[str, LoadedSpec]:
    """Parse every ``(display name, file)`` into ``specs`` (keyed by UID), appending every
    problem to ``problems`` instead of stopping: a UID may be defined once, in a file named
    after it. A file that ``specs`` already holds (by display name) is not parsed again.
    ``root`` is the folder the files were found under (where ``include:`` looks second)."""
    specs = {} if specs is None else specs
    known = {loaded.file for loaded in specs.values()}
    for display, entry in files:
        if display in known:
            continue
        known.add(display)
        try:
            loaded = parse_spec(read_spec_text(entry, display), display, fragment_folders(entry, root))
        except SpecErrors as exc:
            problems.extend(exc.errors)
            continue
        except SpecError as exc:
            problems.append(exc)
            continue
        uid = loaded.uid
        expected = display.rsplit("/", 1)[-1].removesuffix(".yaml")
        if uid in specs:
            problems.append(loaded.error(("uid",), f"duplicate UID {uid!r} (also in {specs[uid].file})"))
        elif expected != uid:
            problems.append(loaded.error(("uid",), f"uid {uid!r} must match the file name {expected}.yaml"))
        else:
            specs[uid] = loaded
    return specs


@cache
def shipped_documents() -> tuple[dict[str, LoadedSpec], tuple[SpecError, ...]]:
    """Every shipped spec, parsed once per process, and the problems found (none, normally)."""
    problems: list[SpecError] = []
    specs = load_documents(shipped_spec_files(), problems)
    return specs, tuple(problems)


@cache
def shipped_designs() -> tuple[dict[str, LoadedSpec], tuple[SpecError, ...]]:
    """Every shipped factorial design (``grammar/designs/``), parsed once per process, and the
    problems found (none, normally; a file there without ``factors:`` is one)."""
    problems: list[SpecError] = []
    specs = load_documents(shipped_design_files(), problems)
    for loaded in specs.values():
        if loaded.design is None:
            problems.append(
                loaded.error(
                    ("uid",),
                    "a spec under grammar/designs/ declares factors: "
                    "(docs/factors.md); plain paradigms go under grammar/paradigms/",
                )
            )
    return specs, tuple(problems)


def load_shipped_designs() -> dict[str, LoadedSpec]:
    """The shipped factorial designs, keyed by UID.

    Raises:
        SpecErrors: every problem in their files.
    """
    specs, problems = shipped_designs()
    if problems:
        raise SpecErrors(list(problems))
    return dict(specs)


def load_specs(paths: tuple[Path | str, ...] = (), spec_type: type[SpecBase] = ParadigmSpec) -> dict[str, LoadedSpec]:
    """The shipped specs plus those under user folders (no environment: see ``Catalog``), of one type.

    Raises:
        SpecErrors: every problem in every file, including duplicate UIDs.
    """
    shipped, shipped_problems = shipped_documents()
    problems = list(shipped_problems)
    specs = dict(shipped)
    for folder in paths:
        try:
            load_documents(spec_files(folder), problems, specs, Path(folder))
        except SpecErrors as exc:
            problems.extend(exc.errors)
    if problems:
        raise SpecErrors(problems)
    return {uid: loaded for uid, loaded in specs.items() if isinstance(loaded.spec, spec_type)}


def load_shipped_specs(spec_type: type[SpecBase] = ParadigmSpec) -> dict[str, LoadedSpec]:
    """The shipped specs of one type (paradigms unless told), keyed by UID: a new dict each call
    (the specs are parsed once per process; a caller changing the dict changes nothing else)."""
    return dict(_shipped_specs(spec_type))


@cache
def _shipped_specs(spec_type: type[SpecBase]) -> dict[str, LoadedSpec]:
    return load_specs((), spec_type)
