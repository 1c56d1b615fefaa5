"""``blimpgen check``: every problem of every paradigm file, in one run.

Static problems come from the loader (schema, templates, contrast names, duplicate UIDs) and
from building each paradigm against the lexicon (kinds, parameters, features and values).
Then each paradigm is sampled a few hundred times to find what only sampling shows: slots that
never get a candidate, templates that never render, too small a space for the requested N
(capacity estimated from repeats in the sample), and good/bad sentences that differ outside
the spec's ``contrast``. Every problem is a :class:`SpecError` printed ``file:line: key: message``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import TemplateError

from blimpgen.errors import SpecError, SpecErrors
from blimpgen.generators.generate import Attempts
from blimpgen.generators.paradigm import BRANCH, Paradigm, build_paradigm, contrast_leaks, paradigm_rng
from blimpgen.grammar import discovery
from blimpgen.grammar.loader import load_documents
from blimpgen.grammar.spec import ParadigmSpec
from blimpgen.grammar.templates import RenderDeadEnd
from blimpgen.vocab.lexicon import Lexicon

SAMPLE_ATTEMPTS = 300
MIN_REPEATS = 3  # fewer repeated sentences in a sample say too little about the space's size


@dataclass
class CheckReport:
    """The outcome of a check.

    Attributes:
        problems: every problem, in file order.
        checked: UIDs of the paradigms that were built and sampled.
    """

    problems: list[SpecError] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        """One ``file:line: key: message`` line per problem."""
        return [p.format() for p in self.problems]


def spec_files(paths: tuple[str | Path, ...]) -> list[tuple[str, Path]]:
    """The YAML files named by ``paths`` (files, or folders searched recursively).

    Raises:
        SpecErrors: for a path that does not exist.
    """
    found: list[tuple[str, Path]] = []
    for path in map(Path, paths):
        if path.is_dir():
            found.extend(discovery.spec_files(path))
        elif path.is_file():
            found.append((str(path), path))
        else:
            raise SpecErrors([SpecError("no such file or folder", str(path))])
    return found


def check_paradigms(paths: tuple[str | Path, ...], lexicon: Lexicon, n: int = 1000,
                    attempts: int = SAMPLE_ATTEMPTS, seed: int = 0) -> CheckReport:
    """Check the specs under ``paths`` (the shipped ones when ``paths`` is empty).

    The shipped specs are always loaded, so a user UID that collides with one is reported.
    """
    report = CheckReport()
    user = spec_files(paths)
    shipped = discovery.shipped_spec_files()
    specs = load_documents(shipped + user, report.problems)
    targets = {display for display, _ in (user if paths else shipped)}
    for uid, loaded in specs.items():
        if loaded.file not in targets or not isinstance(loaded.spec, ParadigmSpec):
            continue
        try:
            paradigm = build_paradigm(loaded, lexicon)
        except SpecErrors as exc:
            report.problems.extend(exc.errors)
            continue
        report.problems.extend(sample_problems(paradigm, n, attempts, seed))
        report.checked.append(uid)
    return report


def sample_problems(paradigm: Paradigm, n: int, attempts: int, seed: int = 0) -> list[SpecError]:
    """Problems only sampling shows (dry slots, unrenderable templates, capacity, contrast)."""
    loaded = paradigm.loaded
    rng = paradigm_rng(seed, paradigm.uid)
    reached: Counter = Counter()
    dry: Counter = Counter()
    render_failures: Counter = Counter()
    goods: Counter = Counter()
    leaks: dict[tuple, tuple[str, str, list[str]]] = {}
    problems: list[SpecError] = []
    for _ in range(attempts):
        index = rng.randrange(len(paradigm.bodies)) if len(paradigm.bodies) > 1 else 0
        body = paradigm.bodies[index]
        bindings: dict = {BRANCH: index} if len(paradigm.bodies) > 1 else {}
        for name, kind in body.slots:
            reached[(index, name)] += 1
            value = kind.sample(rng, bindings)
            if value is None:
                dry[(index, name)] += 1
                break
            bindings[name] = value
        else:
            try:
                fields = paradigm.render(bindings)
            except RenderDeadEnd as exc:
                render_failures[(index, str(exc))] += 1
                continue
            except TemplateError as exc:  # e.g. the sandbox refused an attribute
                problems.append(loaded.error(body.variant.path + ("good",), f"template error: {exc}"))
                return problems
            good, bad = fields["sentence_good"], fields["sentence_bad"]
            goods[good] += 1
            outside = contrast_leaks(paradigm, bindings, good, bad)
            if outside:
                leaks.setdefault((index, tuple(outside)), (good, bad, outside))
    for (index, name), count in sorted(dry.items()):
        variant = paradigm.bodies[index].variant
        if count == reached[(index, name)]:
            problems.append(loaded.error(variant.slot_path(name), f"no lexicon entry satisfies this slot's "
                                         f"constraints in {count} attempts (check features and references)"))
    made = sum(goods.values())
    if not made and not problems:
        reason = render_failures.most_common(1)[0][0][1] if render_failures else "no attempt succeeded"
        problems.append(loaded.error(("good",), f"no pair rendered in {attempts} attempts ({reason})"))
    for (index, outside), (good, bad, words) in list(leaks.items())[:3]:
        variant = paradigm.bodies[index].variant
        path = variant.path + ("contrast",) if variant.path and variant.contrast else ("contrast",)
        problems.append(loaded.error(path, f"good and bad differ in {', '.join(map(repr, words))}, which "
                                     f"contrast {variant.contrast} does not cover: {good!r} / {bad!r}"))
    if made:
        capacity = estimate_capacity(made, len(goods))
        expected = made / attempts * Attempts(n).budget  # pairs the generator's budget yields
        if capacity < n and made - len(goods) >= MIN_REPEATS:
            problems.append(loaded.error(("slots",), f"too small a space for {n} pairs: about {capacity:.0f} "
                                         f"unique good sentences (estimated from {made} samples)"))
        elif expected < n:
            problems.append(loaded.error(("slots",), f"only {made} of {attempts} attempts succeed, so {n} pairs "
                                         f"would exceed the attempt budget; loosen the constraints"))
    return problems


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
