"""``blimpgen check``: every problem of every spec file (paradigms and probe suites), in one run.

Static problems come from the loader (schema, templates, contrast names, duplicate UIDs) and
from building each spec against the lexicon (kinds, parameters, features and values), both
through the :class:`~blimpgen.generators.catalog.Catalog`. Then each source is sampled a few
hundred times to find what only sampling shows: slots that never get a candidate, templates
that never render, too small a space for the requested N (capacity estimated from repeats in
the sample), and what the source itself flags (a paradigm's good/bad sentences that differ
outside its ``contrast``). Every problem is a :class:`SpecError` printed ``file:line: key: message``.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path

from blimpgen.errors import GenerationError, SpecError, SpecErrors
from blimpgen.generators.catalog import Catalog
from blimpgen.generators.generate import Attempts
from blimpgen.generators.source import DeadEnd, Source, paradigm_rng
from blimpgen.grammar import discovery
from blimpgen.grammar.spec import ParadigmSpec
from blimpgen.grammar.templates import RenderDeadEnd
from blimpgen.vocab.lexicon import Lexicon
from blimpgen.vocab.overlays import overlay_paths

SAMPLE_ATTEMPTS = 300
MIN_REPEATS = 3  # fewer repeated sentences in a sample say too little about the space's size
SIGNIFICANCE = 0.01  # flag a space as too small only when its repeats are this unlikely for N items
MAX_STRATA = 20  # a first slot with more values is not an answer drawn first (stratified_capacity)


@dataclass
class CheckReport:
    """The outcome of a check.

    Attributes:
        problems: every problem, in file order.
        checked: the specs that were built and sampled (``LoadedSpec``).
    """

    problems: list[SpecError] = field(default_factory=list)
    checked: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        """One ``file:line: key: message`` line per problem."""
        return [p.format() for p in self.problems]

    def summary(self) -> str:
        """``N paradigms OK``, or one count per spec type, smallest first (``5 factorial designs, 7 probe
        suites and 67 paradigms OK``; a paradigm with factors counts as a design)."""
        counts = Counter(
            "factorial design" if loaded.design is not None else loaded.spec.noun for loaded in self.checked
        ) or Counter({ParadigmSpec.noun: 0})
        ordered = sorted(counts.items(), key=lambda item: (item[1], item[0]))
        parts = [f"{count} {noun}s" for noun, count in ordered]
        return (", ".join(parts[:-1]) + " and " if len(parts) > 1 else "") + parts[-1] + " OK"


def spec_files(paths: tuple[str | Path, ...]) -> list[tuple[str, Path]]:
    """The YAML files named by ``paths`` (files, or folders searched recursively).

    Raises:
        SpecErrors: for a path that does not exist.
    """
    found: list[tuple[str, Path]] = []
    for path in map(Path, paths):
        if path.is_dir():
            found.extend(discovery.spec_files(path))
        elif os.path.lexists(path):  # a file, or something reading it will describe (a FIFO, a dangling link)
            found.append((str(path), path))
        else:
            raise SpecErrors([SpecError("no such file or folder", str(path))])
    return found


def check_paradigms(
    paths: tuple[str | Path, ...],
    lexicon: Lexicon | None = None,
    n: int = 1000,
    attempts: int = SAMPLE_ATTEMPTS,
    seed: int = 0,
    overlays: tuple[str | Path, ...] = (),
) -> CheckReport:
    """Check the specs (paradigms and probe suites) under ``paths``, the shipped ones when ``paths``
    is empty. The shipped specs are always loaded, so a user UID that collides with one is reported;
    other user folders (``$BLIMPGEN_PARADIGM_PATH``, packages) are not: check looks at what it is given.

    Args:
        paths: spec files and folders.
        lexicon: the lexicon to check against (default: shipped plus ``overlays`` and
            ``$BLIMPGEN_LEXICON_OVERLAY``).
        n: records the author plans to generate per spec (for the capacity estimate).
        attempts: sampling attempts per spec.
        seed: the sampling seed.
        overlays: lexicon overlay files.

    Raises:
        SpecErrors: for a path that does not exist, or invalid overlays.
    """
    files = spec_files(paths)
    catalog = Catalog([path for _, path in files], overlay_paths(overlays), lexicon)
    return check_catalog(catalog, [display for display, _ in files] if paths else None, n, attempts, seed)


def check_catalog(
    catalog: Catalog, files: list[str] | None = None, n: int = 1000, attempts: int = SAMPLE_ATTEMPTS, seed: int = 0
) -> CheckReport:
    """Every load and build problem of a catalogue, then the sampling problems of each target.

    Args:
        catalog: the specs and lexicon to check.
        files: display names of the spec files to check (the shipped ones when None).
        n: records the author plans to generate per spec (for the capacity estimate).
        attempts: sampling attempts per spec.
        seed: the sampling seed.
    """
    load_problems, checked = catalog.check(files)
    report = CheckReport(problems=load_problems)
    for spec in checked:
        report.problems.extend(spec.problems)
        if spec.source is not None:
            report.problems.extend(sample_problems(spec.source, n, attempts, seed))
            report.checked.append(spec.loaded)
    return report


def sample_problems(source: Source, n: int, attempts: int, seed: int = 0) -> list[SpecError]:
    """Problems only sampling shows (dry slots, unrenderable templates, capacity, the source's findings)."""
    loaded = source.loaded
    rng = paradigm_rng(seed, source.uid)
    reached: Counter = Counter()
    dry: Counter = Counter()
    render_failures: Counter = Counter()
    made: Counter = Counter()  # identity key -> times rendered
    strata: dict[str, Counter[Hashable]] = {}  # the first slot's value -> identity key -> times rendered
    findings: dict = {}
    problems: list[SpecError] = []
    for _ in range(attempts):
        bindings = source.sample(rng, reached)
        if isinstance(bindings, DeadEnd):
            dry[(bindings.branch, bindings.slot)] += 1
            continue
        try:
            fields = source.render(bindings)
        except RenderDeadEnd as exc:
            render_failures[str(exc)] += 1
            continue
        except GenerationError as exc:  # a template failed (or a suite's templates disagree), located
            problems.append(SpecError.relocated(exc))
            return problems
        made[source.keys(fields)[0]] += 1
        first = next(iter(bindings), None)
        strata.setdefault(str(bindings[first]) if first is not None else "", Counter())[source.keys(fields)[0]] += 1
        for key, path, message in source.findings(bindings, fields):
            findings.setdefault(key, (path, message))
    for (branch, name), count in sorted(dry.items()):
        if count == reached[(branch, name)]:
            problems.append(
                loaded.error(
                    source.slot_path(DeadEnd(name, name, branch)),
                    f"no lexicon entry "
                    f"satisfies this slot's constraints in {count} attempts (check features and "
                    "references)",
                )
            )
    total = sum(made.values())
    if not total and not problems:
        reason = render_failures.most_common(1)[0][0] if render_failures else "no attempt succeeded"
        problems.append(
            loaded.error(source.template_path(None), f"no {source.unit} rendered in {attempts} attempts ({reason})")
        )
    problems += [loaded.error(path, message) for path, message in list(findings.values())[:3]]
    if total:
        capacity = stratified_capacity(list(strata.values()))
        expected = total / attempts * Attempts(n).budget  # records the generator's budget yields
        if capacity < n and total - len(made) >= MIN_REPEATS and repeats_unlikely(total, len(made), n):
            problems.append(
                loaded.error(
                    ("slots",),
                    f"too small a space for {n} {source.unit}s: about "
                    f"{capacity:.0f} unique {source.identity} (estimated from {total} samples)",
                )
            )
        elif expected < n:
            problems.append(
                loaded.error(
                    ("slots",),
                    f"only {total} of {attempts} attempts succeed, so {n} "
                    f"{source.unit}s would exceed the attempt budget; loosen the constraints",
                )
            )
    return problems


def repeats_unlikely(draws: int, unique: int, n: int, alpha: float = SIGNIFICANCE) -> bool:
    """Whether ``draws - unique`` repeats are too many for a space of ``n`` equally likely items.

    Under that space the repeats are about Poisson with mean ``draws - n * (1 - (1 - 1/n) ** draws)``;
    True when seeing this many or more has probability below ``alpha``. A few repeats in a small
    sample are expected even from a space of ``n`` (85 draws from 1,000 items repeat 3.5 times on
    average), so they are not evidence that the space is smaller.
    """
    mean = draws - n * (1 - (1 - 1 / n) ** draws)
    repeats = draws - unique
    term = below = math.exp(-mean)  # P(R = 0), then P(R < repeats) term by term
    for k in range(1, repeats):
        term *= mean / k
        below += term
    return 1 - below < alpha if repeats > 0 else False


def stratified_capacity(strata: list[Counter[Hashable]]) -> float:
    """How many distinct items a source has, from what each value of its first slot made.

    A suite that draws its answer first (one of a few values, each equally likely) samples the
    items of a rare answer far more often than the rest, so repeats there say little about the
    whole space; when the first slot took at most ``MAX_STRATA`` values and no item came from two
    of them, the capacity is the sum of each value's own estimate. Otherwise, as for a uniform
    space: :func:`estimate_capacity` of all draws.
    """
    keys = [key for stratum in strata for key in stratum]
    if 1 < len(strata) <= MAX_STRATA and len(keys) == len(set(keys)):
        return sum(estimate_capacity(sum(stratum.values()), len(stratum)) for stratum in strata)
    everything: Counter[Hashable] = Counter()
    for stratum in strata:
        everything.update(stratum)
    return estimate_capacity(sum(everything.values()), len(everything))


def estimate_capacity(draws: int, unique: int) -> float:
    """How many distinct items a population has, from ``unique`` distinct among ``draws`` draws.

    Solves ``M * (1 - (1 - 1/M) ** draws) = unique`` for M; with no repeat the sample only
    says that the population is large (returns infinity).
    """
    if unique >= draws:
        return math.inf
    low, high = float(unique), 1e12
    for _ in range(200):
        middle = (low + high) / 2
        if middle * (1 - (1 - 1 / middle) ** draws) < unique:
            low = middle
        else:
            high = middle
    return high
