"""Malformed files loaded as a library caller loads them, and malformed command lines.

These are the corpus's first inputs (formerly ``tests/fixtures/bad`` and ``bad_specs``): one
defect each, each with the message its first error line must carry right after the file's path.
Kinds, by file name: ``spec_*``/``paradigm_*`` (a paradigm spec built against the test
lexicon), ``lexicon_*`` (lexicon rows checked against the shipped inventory), ``overlay_*`` (a
YAML lexicon overlay on the shipped lexicon).
"""

from __future__ import annotations

from tests.hostile.corpus import REPO, Case, Error, Input, cli, load_overlay, load_rows, load_spec

LOADED = [
    ("lexicon_bad_enum_value.tsv", ":2: gender: gender has no value 'x'; expected one of: f, m, n"),
    ("lexicon_derived_feature.tsv", ":2: plural_type: derived feature: the loader computes it; remove it"),
    ("lexicon_duplicate_entry.tsv", ":3: duplicate entry N:cat:sg (first at"),
    ("lexicon_empty_text.tsv", ":2: text: empty text column"),
    ("lexicon_feature_twice.tsv", ":2: animate: feature written twice"),
    ("lexicon_feature_wrong_category.tsv", ":2: frames: feature not allowed on N (allowed on V)"),
    ("lexicon_flag_with_value.tsv", ":2: animate: animate is a flag; write it bare or as animate=true/false"),
    ("lexicon_formula_syntax.tsv", ":2: arg2: expected ')', found end of formula in '(class=food'"),
    ("lexicon_human_not_animate.tsv", ":2: human: human implies animate: add animate"),
    ("lexicon_one_column.tsv", ":2: expected 3 TAB-separated columns (text, category, features), found 1"),
    (
        "lexicon_relation_contradiction.tsv",
        ":2: antonym: 'hot' and 'cold' are both antonym and synonym; a pair can only be one",
    ),
    (
        "lexicon_relation_cycle.tsv",
        ":2: isa: isa cycle: bird -> animal -> bird; a chain must end at a word without isa",
    ),
    ("lexicon_relation_self.tsv", ":2: isa: 'robin' cannot be its own isa"),
    ("lexicon_relation_unknown_lemma.tsv", ":2: isa: unknown N lemma 'brid'; did you mean 'bird'?"),
    ("lexicon_two_many_columns.tsv", ":2: expected 3 TAB-separated columns (text, category, features), found 4"),
    ("lexicon_unknown_category.tsv", ":2: category: unknown category 'NN'; did you mean 'N'?"),
    ("lexicon_unknown_feature.tsv", ":2: animat: unknown feature; did you mean 'animate'?"),
    ("overlay_categories_list.overlay.yaml", ":1: categories: categories must be a mapping"),
    ("overlay_entries_not_list.overlay.yaml", ":1: entries: entries must be a list of {text, category, features}"),
    ("overlay_entry_bad_feature.overlay.yaml", ":3: animat: unknown feature; did you mean 'animate'?"),
    (
        "overlay_entry_not_mapping.overlay.yaml",
        ":2: entries[0]: an entry must be a mapping {text: ..., category: ..., features: ...}",
    ),
    ("overlay_entry_number.overlay.yaml", ":2: entries[0]: text, category and features must be strings without tabs"),
    ("overlay_entry_unknown_key.overlay.yaml", ":2: entries[0].feats: unknown key 'feats'; did you mean 'features'?"),
    (
        "overlay_feature_bad_type.overlay.yaml",
        ":2: features.glowing: type must be one of bool, enum, set, formula, form, text",
    ),
    (
        "overlay_feature_not_mapping.overlay.yaml",
        ":2: features.glowing: a feature must be a mapping with type, categories and doc",
    ),
    (
        "overlay_feature_unknown_category.overlay.yaml",
        ":2: features.glowing: unknown category 'NOUN'; expected one of: A, ADV, AUX, C, D, N, P, PN, PRO, V, WH",
    ),
    ("overlay_not_mapping.overlay.yaml", ":1: a lexicon overlay must be a mapping with categories, features, entries"),
    (
        "overlay_redefine_feature.overlay.yaml",
        ":2: features.animate: feature 'animate' is already declared in vocab/data/features.yaml",
    ),
    ("overlay_unknown_key.overlay.yaml", ":1: entrys: unknown key 'entrys'; did you mean 'entries'?"),
    (
        "spec_aux_unknown.yaml",
        ":11: slots.verb.aux: Input should be 'simple', 'modal', 'do', 'progressive', 'perfect' or 'passive'",
    ),
    ("spec_bad_missing.yaml", ":1: bad: missing required key 'bad'"),
    (
        "spec_bool_as_string.yaml",
        ":10: slots.subj.head: Input should be a valid string (YAML reads "
        "yes/no/on/off/true/false as booleans: quote the word)",
    ),
    ("spec_branches_and_good.yaml", ":14: good: with branches, good belongs inside each branch"),
    ("spec_branches_empty.yaml", ":14: branches: branches needs at least one branch"),
    ("spec_choice_empty.yaml", ":13: slots.dem.values: Tuple should have at least 1 item after validation, not 0"),
    (
        "spec_choice_linked_mismatch.yaml",
        ":13: slots.dem.values: linked values must all be mappings with the same keys",
    ),
    ("spec_contrast_string.yaml", ":8: contrast: Input should be a valid list"),
    ("spec_deep_nesting.yaml", ": YAML nesting is too deep"),
    ("spec_description_number.yaml", ":4: description: Input should be a valid string"),
    ("spec_description_too_long.yaml", ":4: description: String should have at most 300 characters"),
    (
        "spec_distinct_unknown_slot.yaml",
        ":12: slots.noun.distinct: unknown slot 'subject'; did you mean 'subj'? (only earlier slots can be referenced)",
    ),
    ("spec_empty_file.yaml", ":1: a paradigm spec must be a YAML mapping (uid: ..., slots: ...)"),
    (
        "spec_field_list.yaml",
        ":2: field: Input should be 'morphology', 'syntax', 'semantics', 'syntax_semantics' or 'syntax/semantics'",
    ),
    ("spec_float_overflow.yaml", ":5: simple_LM_method: Input should be a valid boolean"),
    ("spec_formula_garbage.yaml", ":10: slots.subj.head: expected a name, found 'and' in 'N and and or ((('"),
    (
        "spec_formula_later_slot.yaml",
        ":10: slots.subj.head: unknown slot 'noun' in noun.number (only earlier slots can be referenced)",
    ),
    (
        "spec_formula_unknown_value.yaml",
        ":12: slots.noun.where: plural_type has no value 'reglar'; did you mean 'regular' or 'irregular'?",
    ),
    ("spec_good_empty.yaml", ":14: good: String should have at least 1 character"),
    ("spec_good_number.yaml", ":14: good: Input should be a valid string"),
    (
        "spec_huge_number.yaml",
        ":5: YAML error: number too long (Exceeds the limit (4300 digits) for integer string conversion)",
    ),
    ("spec_invalid_utf8.yaml", ": cannot read file: not UTF-8 text (byte 0xff at position 92)"),
    ("spec_key_integer.yaml", ":9: slots[7].[key]: Input should be a valid string"),
    ("spec_kind_number.yaml", ":9: slots: slot 'dem' must be a mapping with a 'kind' (e.g. kind: word)"),
    ("spec_missing_uid.yaml", ":1: uid: missing required key 'uid'"),
    ("spec_nul_character.yaml", ":4: YAML error: unacceptable character #x0000: special characters are not allowed"),
    ("spec_one_prefix_unknown_key.yaml", ":16: one_prefix.word_bad: missing required key 'word_bad'"),
    ("spec_one_prefix_without_flag.yaml", ":16: one_prefix: a one_prefix block needs one_prefix_method: true"),
    ("spec_slot_not_mapping.yaml", ":13: slots.dem: Input should be a valid dictionary"),
    ("spec_slot_without_kind.yaml", ":9: slots: slot 'dem' must be a mapping with a 'kind' (e.g. kind: word)"),
    ("spec_slots_list.yaml", ":9: slots: Input should be a valid dictionary"),
    ("spec_template_attr_filter.yaml", ":14: good: the attr filter is not allowed in templates; write slot.part"),
    ("spec_template_control_char.yaml", ":14: good: control character U+0007 in template"),
    ("spec_template_dunder.yaml", ":14: good: attribute '__class__' is not allowed in templates"),
    (
        "spec_template_global_function.yaml",
        ":14: good: 'lipsum' is not available in templates (only the slots dem, noun, subj, verb are)",
    ),
    ("spec_template_globals.yaml", ":14: good: attribute '__globals__' is not allowed in templates"),
    (
        "spec_template_import.yaml",
        ":14: good: 'import' is not allowed in templates (a paradigm is one self-contained file)",
    ),
    (
        "spec_template_include.yaml",
        ":14: good: 'include' is not allowed in templates (a paradigm is one self-contained file)",
    ),
    ("spec_template_item_dunder.yaml", ":14: good: attribute '__class__' is not allowed in templates"),
    ("spec_template_power.yaml", ":14: good: arithmetic ('*', '**') is not allowed in templates"),
    (
        "spec_template_unclosed_block.yaml",
        ":14: good: template syntax error: Unexpected end of template. Jinja was looking for the following tags: "
        "'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.",
    ),
    ("spec_tense_wrong_type.yaml", ":11: slots.verb.tense: Input should be a valid tuple"),
    ("spec_top_level_list.yaml", ":1: a paradigm spec must be a YAML mapping (uid: ..., slots: ...)"),
    ("spec_uid_bad_chars.yaml", ":1: uid: uid must start with a letter and contain only letters, digits and _"),
    (
        "spec_undeclared_in_prefix.yaml",
        ":16: one_prefix.prefix: undeclared template variable 'verbb'; did you mean 'verb'?",
    ),
    ("spec_unknown_kind_version.yaml", ":13: slots.dem.kind: unknown slot kind 'word.v9'; did you mean 'word'?"),
    ("spec_unused_slot.yaml", ":10: slots.adj: slot 'adj' is used by no template and no other slot"),
    ("spec_where_empty.yaml", ":13: slots.dem.where: String should have at least 1 character"),
    ("spec_where_list.yaml", ":13: slots.dem.where: Input should be a valid string"),
    ("spec_where_number.yaml", ":13: slots.dem.where: Input should be a valid string"),
    ("spec_yaml_merge_key.yaml", ":11: slots: YAML merge keys ('<<') are not supported"),
    (
        "spec_yaml_python_tag.yaml",
        ":4: YAML syntax error: could not determine a constructor for the tag "
        "'tag:yaml.org,2002:python/object/apply:os.system'",
    ),
    (
        "spec_yaml_tab_indent.yaml",
        ":10: YAML syntax error: while scanning for the next token found character '\\t' that cannot start any token",
    ),
    ("paradigm_agreeing_without_subject.yaml", ":11: slots.verb.agreeing: agreeing: true needs a subject"),
    (
        "paradigm_bad_contrast.yaml",
        ":8: contrast[0]: 'nuon' is neither a slot nor a word of the good or bad template; did you mean 'noun'?",
    ),
    ("paradigm_bad_field.yaml", ":2: field: Input should be 'morphology', 'syntax'"),
    ("paradigm_bad_param_value.yaml", ":11: slots.verb.negation: Input should be 'never', 'optional' or 'always'"),
    ("paradigm_bad_slot_name.yaml", ":9: slots: slot name '2dem' must be an identifier"),
    ("paradigm_duplicate_key.yaml", ":15: good: duplicate key 'good' (first written on line 14)"),
    (
        "paradigm_formula_syntax.yaml",
        ":10: slots.subj.head: expected ')', found end of formula in '(N and animate or PN'",
    ),
    ("paradigm_forward_reference.yaml", ":12: slots.noun.where: unknown slot 'dem' in dem.number"),
    ("paradigm_jinja_syntax.yaml", ":14: good: template syntax error: unexpected '}'"),
    ("paradigm_method_without_block.yaml", ":6: one_prefix_method: true needs a one_prefix block of templates"),
    ("paradigm_missing_good.yaml", ":1: good: missing required key 'good'"),
    ("paradigm_not_a_mapping.yaml", ":1: a paradigm spec must be a YAML mapping"),
    ("paradigm_takes_non_formula.yaml", ":12: slots.noun.where: takes() needs a formula feature, not 'animate'"),
    ("paradigm_undeclared_variable.yaml", ":15: bad: undeclared template variable 'nuon'; did you mean 'noun'?"),
    (
        "paradigm_unknown_feature.yaml",
        ":12: slots.noun.where: unknown category or feature 'animat'; did you mean 'animate'?",
    ),
    ("paradigm_unknown_filter.yaml", ":15: bad: unknown filter 'flipp'; did you mean 'flip'?"),
    ("paradigm_unknown_kind.yaml", ":13: slots.dem.kind: unknown slot kind 'wrod'; did you mean 'word'?"),
    (
        "paradigm_unknown_parameter.yaml",
        ":13: slots.dem.wher: unknown parameter 'wher' for kind word; did you mean 'where'?",
    ),
    ("paradigm_unknown_top_key.yaml", ":4: descripton: unknown key 'descripton'; did you mean 'description'?"),
    ("paradigm_unknown_value.yaml", ":12: slots.noun.where: plural_type has no value 'regulr'; did you mean 'regular'"),
    ("paradigm_unused_slot.yaml", ":14: slots.adj: slot 'adj' is used by no template and no other slot"),
    ("paradigm_wrong_type.yaml", ":5: simple_LM_method: Input should be a valid boolean"),
    ("paradigm_yaml_syntax.yaml", ":12: YAML syntax error:"),
]

COMMAND_LINES = [
    ("cli_audit_nothing", ["audit"], "give UID (one or more) or --all"),
    (
        "cli_audit_threshold",
        ["audit", "npi_present_1", "--threshold", "2"],
        "Invalid value for '--threshold': 2.0 is not in the range 0.5<=x<=1.0.",
    ),
    (
        "cli_audit_unknown_uid",
        ["audit", "npi_presnt_1"],
        "unknown paradigm 'npi_presnt_1'; did you mean 'npi_present_1' or 'npi_present_2'?",
    ),
    ("cli_check_missing_path", ["check", "no/such/folder"], "no/such/folder: no such file or folder"),
    (
        "cli_check_zero_n",
        ["check", "-n", "0"],
        "Invalid value for '-n' / '--num': 0 is not in the range 1<=x<=10000000.",
    ),
    (
        "cli_gen_missing_overlay",
        ["gen", "-p", "npi_present_1", "--lexicon-overlay", "no_such.tsv"],
        "Invalid value for '--lexicon-overlay': File 'no_such.tsv' does not exist.",
    ),
    (
        "cli_gen_overlay_wrong_suffix",
        ["gen", "-p", "npi_present_1", "--lexicon-overlay", "notes.txt"],
        "a lexicon overlay must be a .tsv or .yaml file",
    ),
    (
        "cli_new_bad_field",
        ["new", "abc", "--phenomenon", "npi_licensing", "--field", "syntx", "-o", "out"],
        "--field: unknown field 'syntx'; did you mean 'syntax'?",
    ),
    (
        "cli_new_bad_phenomenon",
        ["new", "abc", "--phenomenon", "npi licensing", "-o", "out"],
        "--phenomenon: phenomenon 'npi licensing' must be one word; did you mean 'npi_licensing'?",
    ),
    (
        "cli_new_bad_uid",
        ["new", "1abc", "--phenomenon", "npi_licensing", "-o", "out"],
        "uid: a UID starts with a letter and has only letters, digits and _",
    ),
    ("cli_new_without_phenomenon", ["new", "abc"], "Missing option '--phenomenon'."),
    ("cli_unknown_command", ["chek"], "No such command 'chek'."),
]


def _loader(name: str):
    if name.startswith("lexicon_"):
        return load_rows(name), "lexicon"
    if name.startswith("overlay_"):
        return load_overlay(name), "overlay"
    return load_spec(name), "spec"


def _loaded_case(name: str, message: str) -> Case:
    command, surface = _loader(name)
    return Case(
        id=name,
        surface=surface,
        what=f"malformed file {name}",
        run=(command,),
        expect=Error(message, located=True),
        files={name: Input(name)},
    )


CASES = [_loaded_case(name, message) for name, message in LOADED]
CASES += [
    Case(
        id=name,
        surface="cli",
        what="malformed command line: " + " ".join(args),
        run=(cli(*args),),
        expect=Error(message),
        files={"notes.txt": "not an overlay\n"},
    )
    for name, args, message in COMMAND_LINES
]
CASES += [
    Case(
        id="paradigm_uid_mismatch",
        surface="spec",
        what="uid differs from the file name",
        run=(cli("check", "P"),),
        expect=Error(":1: uid: uid 'some_other_uid' must match", located=True),
        files={"P/uid_mismatch.yaml": Input("paradigm_uid_mismatch.yaml")},
    ),
    Case(
        id="paradigm_duplicate_shipped_uid",
        surface="spec",
        what="a user file reuses a shipped paradigm's UID",
        run=(cli("check", "P"),),
        expect=Error("duplicate UID 'determiner_noun_agreement_1'"),
        files={
            "P/determiner_noun_agreement_1.yaml": lambda p: p.write_text(
                next((REPO / "src/blimpgen/grammar/paradigms").rglob("determiner_noun_agreement_1.yaml")).read_text()
            )
        },
    ),
]
