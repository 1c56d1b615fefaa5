"""Nonce words: the lexicon with every open-class word replaced by a pseudo-word.

``nonce_lexicon(lexicon, seed)`` renames each noun, verb, adjective and name to a pseudo-word
(*blick*, *dorvel*, *plimish*, *Tavra*) and keeps every feature of the row (frames, verb classes,
selectional restrictions, gender, mass, relations renamed along), so paradigms sample the same
structures; only the words are unknown. A slot formula that names lemmas (``lemma=hire,meet``)
names the same rows under their pseudo-words (:func:`renamed_lemmas`, applied by the sampler).
Forms are regular: nouns take -s or -es, verbs -s, -ed and -ing by the spelling rules of
:mod:`blimpgen.vocab.morphology` (irregular plurals and participles are dropped, so *mouse*
becomes a regular noun). The assignment is stable per seed: the same seed gives every lexeme the
same pseudo-word, in every paradigm.

Pseudo-words come from a phonotactic grammar of English spelling (:data:`ONSETS`,
:data:`SHORT_NUCLEI`, :data:`CODAS`, ...): one- or two-syllable stems (``onset nucleus coda`` or
``onset nucleus medial short-vowel coda``, the onset left out now and then); adjectives add an
adjectival suffix (*-ish, -ous, -ful, -ic, -y*) so they read as adjectives; names are
capitalised two-syllable stems, some ending in a vowel. :data:`PATTERNS` recognises each
category's shape (tests check every pool word against it).
The shipped pool ``data/nonce_words.txt`` (``tools/lexicon/build_nonce_pool.py``) holds stems
whose every form is in neither the lexicon nor a large English word list (the Unix word list,
WikiText-2's vocabulary and the names corpus); when a lexicon (with overlays) needs more, further
stems are drawn from the grammar and checked against the lexicon only.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from importlib import resources
from typing import Any

from blimpgen.vocab import morphology, query
from blimpgen.vocab.lexeme import Lexeme, Word
from blimpgen.vocab.lexicon import Lexicon, expand

NONCE_CATEGORIES = ("N", "V", "A", "PN")
POOL_FILE = "nonce_words.txt"
# Irregular forms a pseudo-word does not inherit: its forms are derived regularly.
FORM_FEATURES = ("plural", "past", "en", "pres3sg", "ing")

ONSETS = (
    "b",
    "bl",
    "br",
    "d",
    "dr",
    "f",
    "fl",
    "fr",
    "g",
    "gl",
    "gr",
    "j",
    "k",
    "kl",
    "kr",
    "l",
    "m",
    "n",
    "p",
    "pl",
    "pr",
    "r",
    "s",
    "sk",
    "sl",
    "sm",
    "sn",
    "sp",
    "st",
    "sw",
    "t",
    "tr",
    "tw",
    "v",
    "w",
    "z",
    "ch",
    "sh",
    "th",
)
SINGLE_ONSETS = ("b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z")
SHORT_NUCLEI = ("a", "e", "i", "o", "u")
LONG_NUCLEI = ("ee", "oo", "ai", "oa", "ou", "oi")
# A word without an onset never starts with u (a unicorn, an umbrella: the article would be unsure).
INITIAL_NUCLEI = ("a", "e", "i", "o", "ee", "oo", "ai", "oa", "ou", "oi")
MEDIAL_CODAS = ("l", "m", "n", "r", "s")
# Word-final consonants whose -s, -ed and -ing need no spelling rule beyond doubling.
SINGLE_CODAS = ("b", "d", "g", "k", "l", "m", "n", "p", "t")
CLUSTER_CODAS = (
    "ft",
    "lk",
    "lp",
    "lt",
    "mp",
    "nd",
    "nk",
    "nt",
    "pt",
    "rb",
    "rd",
    "rk",
    "rm",
    "rn",
    "rp",
    "rt",
    "sk",
    "sp",
    "st",
    "ld",
    "lf",
)
CODAS = SINGLE_CODAS + CLUSTER_CODAS
ADJECTIVE_SUFFIXES = ("ish", "ous", "ful", "ic", "y")
INFLECTION_LIKE = ("ed", "en")
NAME_ENDINGS = ("a", "o", "i")


def _alternatives(*groups: tuple[str, ...]) -> str:
    return "|".join(sorted({item for group in groups for item in group}, key=len, reverse=True))


_START = (
    f"(?:(?:{_alternatives(ONSETS)})(?:{_alternatives(SHORT_NUCLEI, LONG_NUCLEI)})|(?:{_alternatives(INITIAL_NUCLEI)}))"
)
_MEDIAL = f"(?:(?:{_alternatives(MEDIAL_CODAS)})?(?:{_alternatives(SINGLE_ONSETS)})|(?:bl|br|dr|gl|gr|pl|pr|tr|st))"
_SECOND = f"{_MEDIAL}(?:{_alternatives(SHORT_NUCLEI)})"
_CODA = f"(?:{_alternatives(CODAS)})"
STEM = f"{_START}(?:{_SECOND})?{_CODA}"
PATTERNS = {
    "N": re.compile(f"^{STEM}$"),
    "V": re.compile(f"^{STEM}$"),
    "A": re.compile(f"^{_START}{_CODA}(?:{_alternatives(ADJECTIVE_SUFFIXES)})$"),
    "PN": re.compile(
        f"^{_START}{_SECOND}(?:{_alternatives(SINGLE_CODAS)})(?:{_alternatives(NAME_ENDINGS)})?$", re.IGNORECASE
    ),
}


def _start(rng: random.Random) -> str:
    """An onset and a nucleus (no onset in 15% of words, then never a u); long vowels are rarer."""
    if rng.random() < 0.15:
        return rng.choice(INITIAL_NUCLEI)
    nucleus = rng.choice(LONG_NUCLEI) if rng.random() < 0.2 else rng.choice(SHORT_NUCLEI)
    return rng.choice(ONSETS) + nucleus


def _second(rng: random.Random) -> str:
    """A second syllable's start: a medial consonant (or two) and a short vowel."""
    if rng.random() < 0.3:
        medial = rng.choice(("bl", "br", "dr", "gl", "gr", "pl", "pr", "tr", "st"))
    else:
        medial = (rng.choice(MEDIAL_CODAS) if rng.random() < 0.35 else "") + rng.choice(SINGLE_ONSETS)
    return medial + rng.choice(SHORT_NUCLEI)


def _coda(rng: random.Random, cluster_share: float) -> str:
    return rng.choice(CLUSTER_CODAS) if rng.random() < cluster_share else rng.choice(SINGLE_CODAS)


def pseudo_word(rng: random.Random, category: str) -> str:
    """One pseudo-word of ``category`` (N, V, A or PN) from the phonotactic grammar."""
    if category == "A":
        return _start(rng) + _coda(rng, 0.3) + rng.choice(ADJECTIVE_SUFFIXES)
    if category == "PN":
        name = _start(rng) + _second(rng) + rng.choice(SINGLE_CODAS)
        return (name + (rng.choice(NAME_ENDINGS) if rng.random() < 0.4 else "")).capitalize()
    if rng.random() < 0.4:
        return _start(rng) + _coda(rng, 0.4)
    return _start(rng) + _second(rng) + _coda(rng, 0.15)


def regular_plural(stem: str) -> str:
    """The regular plural of a pseudo-noun (its spelling never needs more than -s)."""
    return stem + "es" if stem.endswith(("s", "x", "z", "ch", "sh")) else stem + "s"


def forms(category: str, word: str) -> list[str]:
    """Every written form a pseudo-word of ``category`` takes (lower-cased)."""
    word = word.lower()
    if category == "N":
        return [word, regular_plural(word)]
    if category == "V":
        return [
            word,
            morphology.third_singular(word),
            morphology.regular_past(word),
            morphology.present_participle(word),
        ]
    return [word]


def pronounceable(category: str, word: str) -> bool:
    """Whether a word is a possible pseudo-word of ``category`` under :data:`PATTERNS`."""
    return bool(PATTERNS[category].match(word))


def looks_inflected(category: str, word: str) -> bool:
    """Whether a noun or verb stem ends like an inflection (*-ed*, *-en*): a verb *flened* would
    read as a past tense, so a flipped agreement (*The shil flened*) would look grammatical."""
    return category in ("N", "V") and word.endswith(INFLECTION_LIKE)


def usable(category: str, word: str) -> bool:
    """A pseudo-word the grammar can make that does not look inflected."""
    return pronounceable(category, word) and not looks_inflected(category, word)


@cache
def shipped_pool() -> dict[str, tuple[str, ...]]:
    """The shipped pool: category -> pseudo-words checked against the word lists, in file order."""
    text = (resources.files("blimpgen.vocab") / "data" / POOL_FILE).read_text(encoding="utf-8")
    pool: dict[str, list[str]] = {c: [] for c in NONCE_CATEGORIES}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            category, word = line.split("\t")
            pool[category].append(word)
    return {c: tuple(words) for c, words in pool.items()}


def _candidates(category: str, seed: int) -> Iterator[str]:
    """The pool in a seed's order, then (should it run out) fresh words from the grammar."""
    rng = random.Random(f"blimpgen-nonce:{seed}:{category}")
    pool = list(shipped_pool()[category])
    rng.shuffle(pool)
    yield from pool
    while True:
        word = pseudo_word(rng, category)
        if not looks_inflected(category, word):
            yield word


def assign(lexemes: Iterable[Lexeme], seed: int, taken: set[str]) -> dict[tuple[str, str], str]:
    """(category, lemma) -> pseudo-word for every open-class lexeme, in lexicon order; no form of a
    pseudo-word is in ``taken`` (the lexicon's forms, lower-cased) or shared with another."""
    streams = {c: _candidates(c, seed) for c in NONCE_CATEGORIES}
    used = set(taken)
    out: dict[tuple[str, str], str] = {}
    for lexeme in lexemes:
        key = (lexeme.category, lexeme.lemma)
        if lexeme.category not in streams or key in out:
            continue
        for word in streams[lexeme.category]:
            word_forms = forms(lexeme.category, word)
            if not used.intersection(word_forms):
                used.update(word_forms)
                out[key] = word
                break
    return out


def _renamed(lexeme: Lexeme, word: str, names: dict[tuple[str, str], str], lexicon: Lexicon) -> Lexeme:
    features = {k: v for k, v in lexeme.features.items() if k not in FORM_FEATURES}
    for name, value in lexeme.features.items():
        feature = lexicon.inventory.features.get(name)
        if feature is not None and feature.type == "relation":
            features[name] = frozenset(names.get((feature.target, lemma), lemma) for lemma in value)
    features["_text"] = word
    if lexeme.category == "N" and not features.get("mass"):
        features["plural"] = regular_plural(word)  # listed, so inflect is never asked about a pseudo-word
    return Lexeme(word, lexeme.category, features, lexeme.source)


def nonce_lexicon(lexicon: Lexicon, seed: int = 0) -> Lexicon:
    """``lexicon`` with its open-class words renamed to pseudo-words (see the module docstring).

    The result's ``mode`` is ``nonce`` and its ``fingerprint`` depends on the lexicon's, the
    seed and the pool.
    """
    taken = {w.text.lower() for w in lexicon.words}
    names = assign(lexicon.lexemes, seed, taken)
    flags = {
        cat: tuple(
            sorted(name for name, f in lexicon.inventory.features.items() if f.type == "bool" and cat in f.categories)
        )
        for cat in lexicon.inventory.categories
    }
    by_lexeme: dict[int, list[Word]] = {}
    for w in lexicon.words:
        by_lexeme.setdefault(id(w.lexeme), []).append(w)
    words: list[Word] = []
    articles: dict[str, str] = {}
    for lexeme in lexicon.lexemes:
        word = names.get((lexeme.category, lexeme.lemma))
        if word is None:  # closed classes stay as they are
            words.extend(by_lexeme[id(lexeme)])
            continue
        for form in expand(_renamed(lexeme, word, names, lexicon), flags[lexeme.category]):
            words.append(form)
            articles[form.text] = "an" if form.text[0].lower() in "aeiou" else "a"
    # A pseudo-word never starts with h, y or a vowel read /ju/, so its first letter decides a/an.
    morphology.remember_articles(articles)
    pool_hash = hashlib.sha256("\n".join(f"{c}:{','.join(w)}" for c, w in shipped_pool().items()).encode())
    fingerprint = hashlib.sha256(f"{lexicon.fingerprint}:nonce:{seed}:{pool_hash.hexdigest()}".encode())
    nonce = Lexicon([_fresh(w) for w in words], lexicon.inventory, fingerprint.hexdigest()[:12])
    nonce.mode = "nonce"
    aliases: dict[str, list[str]] = {}
    for (_, lemma), word in names.items():
        aliases.setdefault(lemma, []).append(word)
    nonce.lemma_aliases = {lemma: tuple(words) for lemma, words in aliases.items()}
    return nonce


def renamed_lemmas(node: query.Node, aliases: Mapping[str, tuple[str, ...]]) -> query.Node:
    """``node`` with each lemma a ``lemma`` test names joined by its pseudo-words (``aliases``:
    a nonce lexicon's ``lemma_aliases``), so that a list of everyday verbs selects the same rows
    in the nonce lexicon as in the real one; references and closed-class lemmas stay as they are."""
    kind = node[0]
    if kind in ("and", "or"):
        return (kind, *(renamed_lemmas(child, aliases) for child in node[1:]))
    if kind == "not":
        return ("not", renamed_lemmas(node[1], aliases))
    if kind == "test" and node[1] == "lemma":
        _, name, op, values = node
        renamed: list[Any] = []
        for value in values:
            renamed.append(value)
            if isinstance(value, str):
                renamed.extend(aliases.get(value, ()))
        return ("test", name, op, tuple(dict.fromkeys(renamed)))
    return node


def _fresh(word: Word) -> Word:
    """A copy a new lexicon can number (positions are per lexicon)."""
    return Word(word.id, word.text, word.lexeme, word.features)
