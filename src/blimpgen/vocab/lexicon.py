"""Loading, checking and querying the lexicon.

``load_lexicon()`` reads every ``data/lexicon/*.tsv`` row, checks it against the feature
inventory (unknown features, values, wrong categories, malformed formulas: all reported at
once as ``file:line: feature: message``), links relation features across rows
(:mod:`blimpgen.vocab.relations`), derives regular forms and returns a :class:`Lexicon` of
:class:`~blimpgen.vocab.lexeme.Word` forms.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from blimpgen._io import describe_character, odd_character, read_text
from blimpgen.errors import LexiconError, SourceLoc, SpecError, SpecErrors, did_you_mean
from blimpgen.vocab import morphology, query
from blimpgen.vocab.features import FeatureInventory, load_inventory
from blimpgen.vocab.index import FeatureIndex, positions
from blimpgen.vocab.lexeme import Lexeme, Word
from blimpgen.vocab.relations import link_relations

OPEN_CLASSES = ("N", "PN", "V", "A")
MAX_REPORTED_ERRORS = 200


class Lexicon:
    """All words, indexed for sampling.

    Args:
        words: every word form, in data-file order (the order sampling relies on).
        inventory: the feature inventory the words were checked against.
        fingerprint: short hash of the lexicon's content (see :func:`lexicon_fingerprint`), recorded
            as provenance (``lexicon_hash``).

    Attributes:
        mode: the lexicon mode (:mod:`blimpgen.vocab.modes`): ``default``; ``colorless`` (slot
            formulas drop their semantic literals); ``nonce`` (open-class words are pseudo-words).
        lemma_aliases: in a nonce lexicon, each real open-class lemma's pseudo-words (slot
            formulas that name lemmas are rewritten with them); empty otherwise.
    """

    mode: str = "default"
    lemma_aliases: Mapping[str, tuple[str, ...]] = MappingProxyType({})

    def __init__(self, words: list[Word], inventory: FeatureInventory, fingerprint: str) -> None:
        self.words = words
        self.inventory = inventory
        self.fingerprint = fingerprint
        self.categories = frozenset(inventory.categories)
        self.by_id = {w.id: w for w in words}
        self.lexemes = list(dict.fromkeys(w.lexeme for w in words))
        self._by_category: dict[str, list[Word]] = defaultdict(list)
        self._groups: dict[tuple[str, str], list[Word]] = defaultdict(list)
        for w in words:
            self._by_category[w.category].append(w)
            self._groups[(w.category, w.lemma)].append(w)
        self._filter_cache: dict[query.Node, list[Word]] = {}
        self._index: FeatureIndex | None = None
        self._other_forms: dict[tuple[str, tuple[tuple[str, str], ...]], Word | None] = {}
        for position, w in enumerate(words):
            w.position = position

    @property
    def index(self) -> FeatureIndex:
        """Bitset index of the words by feature value (built lazily, per feature)."""
        if self._index is None:
            flags = frozenset(n for n, f in self.inventory.features.items() if f.type == "bool")
            self._index = FeatureIndex(self.words, self.categories, flags)
        return self._index

    def prepare(self) -> None:
        """Build now the part of the index that sampling any paradigm builds on first use (see
        :meth:`FeatureIndex.prepare`): generation forks its workers after this, so that they
        share it instead of each building its own."""
        self.index.prepare(takes=[name for name, f in self.inventory.features.items() if f.type == "formula"])

    def __len__(self) -> int:
        return len(self.words)

    def category(self, name: str) -> list[Word]:
        """All words of a category, in data order."""
        return self._by_category.get(name, [])

    def filter(self, formula: str) -> list[Word]:
        """Words satisfying a reference-free formula (cached per formula).

        Raises:
            SpecError: for syntax errors or unknown features/values.
        """
        node = query.parse(formula)
        errors = query.check(node, self.inventory, slots=None)
        if errors:
            raise SpecError(errors[0], key=formula)
        return self.filter_node(node)

    def filter_node(self, node: query.Node) -> list[Word]:
        """Words satisfying a parsed, checked, reference-free formula (cached per node)."""
        cached = self._filter_cache.get(node)
        if cached is None:
            cached = [self.words[i] for i in positions(self.index.evaluate(node, None))]
            self._filter_cache[node] = cached
        return cached

    def select(self, where: str | None = None, **features: Any) -> list[Word]:
        """Query words by keyword features and/or a formula.

        ``lexicon.select(category="N", number="pl", animate=True)``; a list or tuple value
        means any of; ``where="fits(...)"``-free formulas combine with ``and``.
        """
        parts = [where] if where else []
        for name, value in features.items():
            if isinstance(value, bool):
                parts.append(name if value else f"not {name}")
            elif isinstance(value, (list, tuple, set, frozenset)):
                parts.append(f"{name}={','.join(sorted(map(str, value)))}")
            else:
                parts.append(f"{name}={value}")
        if not parts:
            return list(self.words)
        return self.filter(" and ".join(f"({p})" for p in parts))

    def forms(self, word: Word) -> list[Word]:
        """All forms of the word's lexeme group (same category and lemma)."""
        return self._groups[(word.category, word.lemma)]

    def other_form(self, word: Word, **changes: str) -> Word | None:
        """The form of the same group that differs in ``changes`` and agrees otherwise.

        ``other_form(w, number="pl")``; the value ``"*other*"`` means any value different
        from the word's own (``flip``). Returns ``None`` when the group has no such form.
        """
        memo_key = (word.id, tuple(sorted(changes.items())))
        if memo_key in self._other_forms:
            return self._other_forms[memo_key]
        found = self._other_form(word, changes)
        self._other_forms[memo_key] = found
        return found

    def _other_form(self, word: Word, changes: dict[str, str]) -> Word | None:
        keys = [k for k in FORM_FEATURES if k not in changes]
        for candidate in self.forms(word):
            if candidate is word:
                continue
            if any(candidate.get(k) != word.get(k) for k in keys):
                continue
            ok = True
            for name, value in changes.items():
                have = candidate.get(name)
                ok = (have is not None and have != word.get(name)) if value == "*other*" else have == value
                if not ok:
                    break
            if ok:
                return candidate
        return None


# Features that distinguish the forms of one lexeme group; ``other_form`` keeps the rest equal.
FORM_FEATURES = ("vform", "tense", "negated", "case", "person", "gender")


# ----------------------------------------------------------------------------- parsing rows


def parse_rows(text: str, file: str, inventory: FeatureInventory) -> tuple[list[Lexeme], list[SpecError]]:
    """Parse TSV rows into lexemes, collecting every error with its ``file:line``."""
    lexemes: list[Lexeme] = []
    errors: list[SpecError] = []
    # Lines end at LF only: str.splitlines() would also split at U+2028, U+0085, form feeds...,
    # cutting a row in two and numbering the lines wrong; those characters are reported instead.
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.removesuffix("\r")
        if number == 1:
            line = line.removeprefix("\ufeff")  # a byte-order mark (Excel, Notepad)
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        odd = odd_character(line, allowed="\t")
        if odd is not None:
            column = ("text", "category", "features")[min(line[: line.index(odd)].count("\t"), 2)]
            errors.append(LexiconError(f"{describe_character(odd)} in the row; remove it", file, number, column))
            continue
        columns = line.split("\t")
        if len(columns) not in (2, 3):
            errors.append(
                LexiconError(
                    f"expected 3 TAB-separated columns (text, category, features), found {len(columns)}", file, number
                )
            )
            continue
        text_col, category = columns[0].strip(), columns[1].strip()
        feats_col = columns[2] if len(columns) == 3 else ""
        if not text_col:
            errors.append(LexiconError("empty text column", file, number, "text"))
            continue
        if category not in inventory.categories:
            errors.append(
                LexiconError(
                    f"unknown category {category!r}{did_you_mean(category, inventory.categories)}",
                    file,
                    number,
                    "category",
                )
            )
            continue
        row_errors: list[SpecError] = []
        features: dict[str, Any] = {}
        for item in feats_col.split(";"):
            item = item.strip()
            if not item:
                continue
            name, eq, value = item.partition("=")
            name, value = name.strip(), value.strip()
            feature = inventory.features.get(name)
            if feature is None:
                row_errors.append(
                    LexiconError(f"unknown feature{did_you_mean(name, inventory.features)}", file, number, name)
                )
                continue
            if name in features:
                row_errors.append(LexiconError("feature written twice", file, number, name))
                continue
            if category not in feature.categories:
                row_errors.append(
                    LexiconError(
                        f"feature not allowed on {category} (allowed on {', '.join(sorted(feature.categories))})",
                        file,
                        number,
                        name,
                    )
                )
                continue
            if feature.derived:
                row_errors.append(
                    LexiconError("derived feature: the loader computes it; remove it", file, number, name)
                )
                continue
            if not eq:
                value = "true" if feature.type == "bool" else ""
                if feature.type != "bool":
                    row_errors.append(
                        LexiconError(f"{feature.type} feature needs a value ({name}=...)", file, number, name)
                    )
                    continue
            problems = inventory.check_value(feature, value)
            if feature.type == "formula":
                try:
                    problems = query.check(query.parse(value), inventory, slots=None)
                except SpecError as exc:
                    problems = [exc.message]
            if problems:
                row_errors.extend(LexiconError(p, file, number, name) for p in problems)
                continue
            features[name] = _typed(feature.type, value)
        if features.get("human") and not features.get("animate") and category in ("N", "PN", "PRO", "WH"):
            row_errors.append(LexiconError("human implies animate: add animate", file, number, "human"))
        if row_errors:
            errors.extend(row_errors)
            continue
        lemma = features.pop("lemma", text_col) if category not in OPEN_CLASSES else text_col
        features["_text"] = text_col
        lexemes.append(Lexeme(lemma, category, features, SourceLoc(file, number)))
    return lexemes, errors


def _typed(ftype: str, value: str) -> Any:
    if ftype == "bool":
        return value == "true"
    if ftype in ("set", "relation"):
        return frozenset(v.strip() for v in value.split(","))
    return value


# ----------------------------------------------------------------------------- forms


def expand(lexeme: Lexeme, flags: tuple[str, ...] = ()) -> list[Word]:
    """Derive the word forms of a lexeme (irregular forms from its features win).

    Args:
        lexeme: the row.
        flags: boolean features of the lexeme's category; absent ones are set to False so
            that comparisons such as ``human = obj.human`` see a value.
    """
    feats = {k: v for k, v in lexeme.features.items() if k != "_text"}
    for flag in flags:
        feats.setdefault(flag, False)
    text, cat, lemma = lexeme.features["_text"], lexeme.category, lexeme.lemma
    base = f"{cat}:{lemma}"
    if cat == "N":
        feats.setdefault("person", "3")
        if not feats.get("animate"):
            feats.setdefault("gender", "n")
        if feats.get("mass"):
            return [Word(f"{base}:sg", text, lexeme, {**feats, "number": "sg", "agreement": frozenset({"mass"})})]
        plural = feats.get("plural")
        if plural is None:
            plural, kind = morphology.plural_noun(text), "regular"
        elif plural == text:
            kind = "invariant"
        else:
            # A listed -s/-es/-ies plural only fixes a spelling inflect gets wrong (egos, not egoes).
            kind = "regular" if plural in morphology.suffixed_plurals(text) else "irregular"
        feats["plural_type"] = kind
        return [
            Word(f"{base}:sg", text, lexeme, {**feats, "number": "sg", "agreement": frozenset({"sg"})}),
            Word(f"{base}:pl", plural, lexeme, {**feats, "number": "pl", "agreement": frozenset({"pl"})}),
        ]
    if cat == "PN":
        feats.update(number="sg", person="3")
        return [Word(f"{base}:sg", text, lexeme, feats)]
    if cat == "V":
        past = feats.get("past") or morphology.regular_past(text)
        en = feats.get("en") or past
        feats["distinct_en"] = en != past
        feats["syncretic_past"] = past == text
        feats["bare_en"] = en == text
        forms = [
            ("bare", text, {}),
            ("pres_sg", feats.get("pres3sg") or morphology.third_singular(text), {"number": "sg"}),
            ("pres_pl", text, {"number": "pl"}),
            ("past", past, {}),
            ("en", en, {}),
            ("ing", feats.get("ing") or morphology.present_participle(text), {}),
        ]
        words = []
        for name, form, extra in forms:
            vform = name.split("_")[0]
            finite = vform in ("pres", "past")
            words.append(Word(f"{base}:{name}", form, lexeme, {**feats, **extra, "vform": vform, "finite": finite}))
        return words
    if cat == "AUX":
        feats["finite"] = True
    # Pronoun forms can share spelling (her: acc and gen), so their id names the case.
    return [Word(f"{base}:{feats.get('case', text)}", text, lexeme, feats)]


# ----------------------------------------------------------------------------- loading


def shipped_sources() -> list[tuple[str, str]]:
    """``(display name, text)`` of every shipped lexicon file, sorted (what :func:`build_lexicon` reads)."""
    folder = resources.files("blimpgen.vocab") / "data" / "lexicon"
    files = sorted((p for p in folder.iterdir() if p.name.endswith(".tsv")), key=lambda p: p.name)
    return [(f"vocab/data/lexicon/{p.name}", p.read_text(encoding="utf-8")) for p in files]


def build_lexicon(sources: list[tuple[str, str]], inventory: FeatureInventory) -> Lexicon:
    """Build a lexicon from ``(display_name, text)`` TSV sources.

    Raises:
        SpecErrors: every row error at once (up to 200), each ``file:line: feature: message``.
    """
    lexemes, errors = [], []
    for name, text in sources:
        rows, row_errors = parse_rows(text, name, inventory)
        lexemes.extend(rows)
        errors.extend(row_errors)
    errors.extend(link_relations(lexemes, inventory))
    words: list[Word] = []
    seen: dict[str, SourceLoc] = {}
    flags = {
        cat: tuple(sorted(name for name, f in inventory.features.items() if f.type == "bool" and cat in f.categories))
        for cat in inventory.categories
    }
    for lexeme in lexemes:
        for word in expand(lexeme, flags[lexeme.category]):
            if word.id in seen:
                errors.append(
                    LexiconError(
                        f"duplicate entry {word.id} (first at {seen[word.id]})", lexeme.source.file, lexeme.source.line
                    )
                )
                break
            seen[word.id] = lexeme.source
            words.append(word)
    if errors:
        raise SpecErrors(errors[:MAX_REPORTED_ERRORS])
    return Lexicon(words, inventory, lexicon_fingerprint(lexemes, inventory))


def lexicon_fingerprint(lexemes: list[Lexeme], inventory: FeatureInventory) -> str:
    """The ``lexicon_hash``: 12 hex digits of a SHA-256 over what the lexicon means.

    It covers the feature inventory (overlay declarations included: the declared order of enum
    values decides ``rank``), the morphology memo and every row's category, lemma, text and
    features, in order; not file names or paths, comments, blank lines, line ends or a BOM. So
    the same overlay at another path gives the same hash, an empty overlay changes nothing, and
    a YAML overlay hashes as the equivalent TSV rows plus its declarations.
    """
    digest = hashlib.sha256(b"blimpgen lexicon 2\n")
    digest.update(inventory.canonical().encode())
    digest.update(morphology.memo_digest().encode() + b"\n")
    for lexeme in lexemes:
        features = ";".join(f"{name}={_canonical_value(value)}" for name, value in sorted(lexeme.features.items()))
        digest.update(f"{lexeme.category}\t{lexeme.lemma}\t{features}\n".encode())
    return digest.hexdigest()[:12]


def _canonical_value(value: Any) -> str:
    if isinstance(value, (set, frozenset)):
        return "{" + ",".join(sorted(map(str, value))) + "}"
    return repr(value)


def load_lexicon_files(
    paths: Iterable[Path | str], inventory: FeatureInventory | None = None, include_shipped: bool = True
) -> Lexicon:
    """Load the shipped lexicon plus extra TSV files (overlays)."""
    sources = shipped_sources() if include_shipped else []
    for path in paths:
        sources.append((str(path), read_text(path, error=LexiconError, encoding="utf-8-sig")))
    return build_lexicon(sources, inventory or load_inventory())


@cache
def load_lexicon() -> Lexicon:
    """Load and check the shipped lexicon (cached for the process)."""
    return build_lexicon(shipped_sources(), load_inventory())
