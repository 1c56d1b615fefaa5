"""Generating N unique records from any source, reproducibly: the one generation loop.

Same seed + same lexicon + same spec -> byte-identical output: every random choice comes
from one ``random.Random`` seeded by ``(seed, UID)``, and candidate lists keep lexicon order.
:func:`generate_records` drives a :class:`~blimpgen.generators.source.Source` (a paradigm or a
probe suite): sample, render, screen, refuse duplicates, make records. A source that cannot
reach N stops after a bounded number of attempts with an error that says how many records it
made and why attempts failed (which slot ran dry, which template could not render).
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

from blimpgen import __version__
from blimpgen._io import atomic_writer, refuse_inputs
from blimpgen._yaml import KeyPath
from blimpgen.errors import GenerationError, OptionError
from blimpgen.generators.catalog import Catalog, sources_as
from blimpgen.generators.kinds.base import Bindings
from blimpgen.generators.paradigm import Paradigm
from blimpgen.generators.pool import can_fork, write_files
from blimpgen.generators.probe import Probe
from blimpgen.generators.source import DeadEnd, Source, paradigm_rng, resolved_kinds, slot_provenance
from blimpgen.grammar.probe_spec import ProbeSpec
from blimpgen.grammar.spec import ParadigmSpec
from blimpgen.grammar.templates import RenderDeadEnd
from blimpgen.records import MinimalPair, ProbeItem, Record, dumps_record
from blimpgen.vocab.lexicon import Lexicon

# Attempts allowed per requested record, plus a floor; and failures in a row before giving up.
ATTEMPTS_PER_PAIR = 40
MIN_ATTEMPTS = 2000
MAX_FAILURES_IN_A_ROW = 5000
RecordT = TypeVar("RecordT", bound=Record)


class Attempts:
    """The bounded attempt budget of one generation run, with every failure's reason counted.

    ``ATTEMPTS_PER_PAIR`` attempts per requested record (at least ``MIN_ATTEMPTS``), and at
    most ``MAX_FAILURES_IN_A_ROW`` failures in a row.
    """

    def __init__(self, n: int) -> None:
        self.budget = max(MIN_ATTEMPTS, ATTEMPTS_PER_PAIR * n)
        self.failures: Counter[str] = Counter()
        self.places: Counter[KeyPath] = Counter()  # key path in the spec -> failures there
        self.count = self.in_a_row = 0

    def another(self) -> bool:
        """Count one more attempt; False when the budget or the failure streak is spent."""
        if self.count >= self.budget or self.in_a_row >= MAX_FAILURES_IN_A_ROW:
            return False
        self.count += 1
        return True

    def fail(self, reason: str, place: KeyPath = ("slots",)) -> None:
        """Count a failed attempt, why, and where in the spec (a slot's or template's key path)."""
        self.failures[reason] += 1
        self.places[place] += 1
        self.in_a_row += 1

    def place(self) -> KeyPath:
        """Where most attempts failed (the spec's ``slots`` when none did)."""
        return self.places.most_common(1)[0][0] if self.places else ("slots",)

    def succeed(self) -> None:
        """End a streak of failures."""
        self.in_a_row = 0

    def reasons(self) -> str:
        """The three most common failures, ``reason: count; ...``."""
        return "; ".join(f"{reason}: {count}" for reason, count in self.failures.most_common(3))

    def draw(self, source: Source[Record], rng: random.Random) -> tuple[Bindings, dict[str, Any]] | None:
        """Sample and render once; on a dead end count why and return None."""
        bindings = source.sample(rng)
        if isinstance(bindings, DeadEnd):
            self.fail(f"slot '{bindings.where}' had no candidate", source.slot_path(bindings))
            return None
        try:
            return bindings, source.render(bindings)
        except RenderDeadEnd as exc:
            self.fail(f"template could not render ({exc})", source.template_path(bindings))
            return None


def generate_records(source: Source[RecordT], n: int, seed: int = 0) -> Iterator[tuple[RecordT, Bindings]]:
    """Yield ``n`` unique records of ``source`` (each with the slot values it was rendered from);
    a source that derives records (a probe's controls) yields them after each one.

    Raises:
        GenerationError: when ``n`` unique records cannot be made within the attempt budget;
            the message names the spec file, the count reached and where attempts failed.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise OptionError(f"the number of {source.unit}s must be a whole number of at least 0, got {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"the seed must be a whole number, got {seed!r}")
    rng = paradigm_rng(seed, source.uid)
    mode = source.lexicon.mode
    stamp = dict(
        seed=seed,
        lexicon_hash=source.lexicon.fingerprint,
        lexicon_mode=None if mode == "default" else mode,
        spec_hash=source.loaded.sha,
        spec_version=source.loaded.spec.version,
        blimpgen_version=__version__,
        kinds=resolved_kinds(source.loaded),
    )
    seen: set[Hashable] = set()
    attempts = Attempts(n)
    made = 0
    while made < n:
        if not attempts.another():
            raise GenerationError.relocated(source.loaded.error(attempts.place(), source.shortfall(n, made, attempts)))
        drawn = attempts.draw(source, rng)
        if drawn is None:
            continue
        bindings, fields = drawn
        reason = source.screen(fields, rng)
        if reason is not None:
            attempts.fail(reason)
            continue
        keys = source.keys(fields)
        if any(key in seen for key in keys):
            attempts.fail(source.duplicate_reason)
            continue
        seen.update(keys)
        attempts.succeed()
        for record in source.to_records(made, bindings, fields, {**stamp, "slots": slot_provenance(bindings)}):
            yield record, bindings
        made += 1


def generate(paradigm: Paradigm, n: int, seed: int = 0) -> Iterator[MinimalPair]:
    """Yield ``n`` unique pairs of a paradigm (see :func:`generate_records`)."""
    for pair, _ in generate_records(paradigm, n, seed):
        yield pair


def generate_with_bindings(paradigm: Paradigm, n: int, seed: int = 0) -> Iterator[tuple[MinimalPair, Bindings]]:
    """Like :func:`generate`, also yielding the slot values each pair was rendered from."""
    return generate_records(paradigm, n, seed)


def generate_items(probe: Probe, n: int, seed: int = 0, controls: tuple[str, ...] = ("none",)) -> Iterator[ProbeItem]:
    """Yield ``n`` unique items of a probe suite, each followed by its controls (in the order given).

    Raises:
        GenerationError: when ``n`` unique items cannot be made, or a control does not apply.
    """
    for item, _ in generate_items_with_bindings(probe, n, seed, controls):
        yield item


def generate_items_with_bindings(
    probe: Probe, n: int, seed: int = 0, controls: tuple[str, ...] = ("none",)
) -> Iterator[tuple[ProbeItem, Bindings]]:
    """Like :func:`generate_items`, also yielding the slot values each item came from."""
    yield from generate_records(probe.with_controls(controls), n, seed)


def write_records(source: Source[Record], n: int, seed: int, out: Path | str | None, progress: bool = True) -> int:
    """Generate into a file atomically (or stream to stdout when ``out`` is None); return the count."""
    records: Iterable[Record] = (record for record, _ in generate_records(source, n, seed))
    if progress and n >= 2000:
        from tqdm import tqdm

        # Only on a terminal (disable=None), and only once a run has taken a second.
        records = tqdm(
            records, total=n, desc=source.uid, unit=source.unit, file=sys.stderr, delay=1.0, leave=False, disable=None
        )
    count = 0
    if out is None:
        for record in records:
            sys.stdout.write(dumps_record(record) + "\n")
            count += 1
        sys.stdout.flush()
        return count
    with atomic_writer(out) as handle:
        for record in records:
            handle.write(dumps_record(record) + "\n")
            count += 1
    return count


def write_jsonl(paradigm: Paradigm, n: int, seed: int, out: Path | str | None, progress: bool = True) -> int:
    """Write ``n`` pairs of a paradigm (see :func:`write_records`)."""
    return write_records(paradigm, n, seed, out, progress)


def write_items(probe: Probe, n: int, seed: int, out: Path | str | None, controls: tuple[str, ...] = ("none",)) -> int:
    """Write ``n`` items of a probe suite, each followed by its controls (see :func:`write_records`)."""
    return write_records(probe.with_controls(controls), n, seed, out, progress=False)


def write_outputs(
    sources: list[Source[Record]],
    n: int,
    seed: int,
    output: Path | str | None = None,
    out_dir: Path | str | None = None,
    controls: tuple[str, ...] = (),
    progress: bool = True,
    report: Callable[[str], None] | None = None,
    jobs: int = 1,
    inputs: Mapping[str, Iterable[Path | str]] | None = None,
) -> None:
    """What ``blimpgen gen`` writes: each source to ``out_dir/UID.jsonl`` (probe controls to
    ``UID.CONTROL.jsonl``), or one source to ``output`` (stdout when both are None).

    ``report`` gets one line per file written (``UID: N pairs -> PATH``), in the order of
    ``sources``. With ``jobs`` > 1 and several files in ``out_dir``, up to ``jobs`` processes
    write them (see :mod:`blimpgen.generators.pool`): the same bytes, without progress bars.
    ``inputs`` (option -> files, e.g. :meth:`Catalog.inputs`) are refused as outputs before
    anything is generated.

    Raises:
        OptionError: when an output path is one of the ``inputs``.
        GenerationError: for the first file (in order) that cannot be made, or a control that a
            probe suite does not offer (then before anything is written).
    """
    files = [
        (name, variant, Path(out_dir) / f"{name}.jsonl" if out_dir else (Path(output) if output else None))
        for source in sources
        for name, variant in source.outputs(controls, split=out_dir is not None)
    ]
    for *_, target in files:
        refuse_inputs(target, inputs or {})
    jobs = jobs if out_dir is not None else 1  # several streams to stdout or one file are written in turn
    parallel = jobs > 1 and len(files) > 1

    if parallel and can_fork():
        for lexicon in {id(source.lexicon): source.lexicon for source in sources}.values():
            lexicon.prepare()  # once here, before the workers are forked, rather than once in each

    def write(variant: Source[Record], n: int, seed: int, target: Path | None) -> int:
        return write_records(variant, n, seed, target, progress and not parallel)

    for (name, variant, target), count in zip(files, write_files(files, n, seed, jobs, write)):
        if target is not None and report is not None:
            report(f"{name}: {count} {variant.unit}s -> {target}")


def load_paradigms(
    uids: list[str] | None = None, paradigm_paths: tuple[Path | str, ...] = (), lexicon: Lexicon | None = None
) -> list[Paradigm]:
    """Build the named paradigms (all when ``uids`` is None) from the shipped specs and every user
    source: ``paradigm_paths``, ``$BLIMPGEN_PARADIGM_PATH`` and installed packages (a :class:`Catalog`).

    Raises:
        SpecErrors: for invalid specs; UnknownNameError for unknown UIDs.
    """
    catalog = Catalog.from_environment(paradigm_paths, lexicon=lexicon)
    return sources_as(catalog.build(uids, ParadigmSpec), Paradigm)


def load_probe_suites(
    uids: list[str] | None = None,
    paths: tuple[Path | str, ...] = (),
    lexicon: Lexicon | None = None,
    options: dict[str, Any] | None = None,
) -> list[Probe]:
    """Build the named probe suites (all when ``uids`` is None) with ``options``, from every source
    :func:`load_paradigms` reads.

    Raises:
        SpecErrors: for invalid suites; UnknownNameError for unknown names; OptionError for bad options.
    """
    catalog = Catalog.from_environment(paths, lexicon=lexicon)
    return sources_as(catalog.build(uids, ProbeSpec, options), Probe)
