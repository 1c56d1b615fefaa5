"""The authoring kit: tools for people who write specs, above the engine they exercise.

- :mod:`~blimpgen.authoring.check`: every problem of every spec (load, build, sampling), one line each.
- :mod:`~blimpgen.authoring.audit`: shallow cues that solve a paradigm without grammar.
- :mod:`~blimpgen.authoring.overlap` (with :mod:`~blimpgen.authoring.corpus`): generated sentences
  and long n-grams a corpus already holds (``audit --overlap``).
- :mod:`~blimpgen.authoring.scaffold`: ``blimpgen new``, a commented skeleton paradigm.
- :mod:`~blimpgen.authoring.reference`: the generated spec-language and feature reference.
- :mod:`~blimpgen.authoring.catalogue`: the generated Markdown catalogue of paradigms.

Nothing is imported here; import the module you need.
"""
