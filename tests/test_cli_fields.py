"""The release flags are generated from the fields' declarations, and read back through them.

Every :class:`ReleaseParams` field has a flag or says why it has none; every flag's ``--help``
shows the field's label and help (in the reader's language) and its constraint's allowed
values (the usage line shows the words, and a word it does not know gets the parameter's
sentence: every field's bad values on every route are in ``tests/test_contracts.py``); and any
valid parameters, said as flags by :func:`argv_for`, come back equal.
"""

from __future__ import annotations

import argparse
import re

import pytest
from hypothesis import given

from engine.cli import build_parser, main
from engine.cli.flags import allowed_text, default_text, flag_of
from engine.cli.params_args import argv_for, params_from_args
from engine.errors import InputError
from engine.i18n import _, use_language
from engine.mechanisms import MECHANISMS
from engine.params import FLAG_GROUPS, Auto, Number, Optional, Options, ReleaseParams
from tests.test_params import few_examples, valid_params

FIELDS = list(ReleaseParams.CONSTRAINTS)


def subparser(command: str) -> argparse.ArgumentParser:
    (sub,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return sub.choices[command]


def flat(text: str) -> str:
    """Help text with argparse's line breaks undone."""
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def anonymize_help() -> dict[str, str]:
    """The help of every flag of ``tclose anonymize``, as argparse writes it, by flag."""
    parser = subparser("anonymize")
    formatter = parser._get_formatter()
    return {
        option: flat(formatter._expand_help(action))
        for action in parser._actions
        for option in action.option_strings
    }


def test_every_field_has_a_generated_flag_or_says_why_not() -> None:
    assert list(ReleaseParams.FLAGS) == FIELDS
    options = set(subparser("anonymize")._option_string_actions)
    for name, info in ReleaseParams.FLAGS.items():
        if info.no_flag:  # project files and the app only
            assert not info.group and not info.via and not flag_of(name), name
            continue
        assert info.group in FLAG_GROUPS or info.via in ReleaseParams.FLAGS, name
        assert flag_of(name) in options, name
    assert {n for n, i in ReleaseParams.FLAGS.items() if i.no_flag} == {"orders", "column_missing"}


def test_the_flags_keep_their_names() -> None:
    """The names scripts use (the flags were written by hand before)."""
    expected = {
        "--qi", "--confidential", "--identifier", "--keep", "--household", "--weight",
        "--household-level", "--household-output", "--weight-output", "--type", "--missing",
        "--missing-confidential", "--k", "--t", "--epsilon", "--mechanism", "--buckets",
        "--utility-weight", "--per-column", "--bounds", "--insensitive",
        "--resample-until-t", "--transform", "--qi-output", "--confidential-output", "--seed",
    }  # fmt: skip
    for command in ("anonymize", "plan", "sweep"):
        assert expected <= set(subparser(command)._option_string_actions), command


@pytest.mark.parametrize("name", [n for n in FIELDS if flag_of(n)])
def test_help_shows_the_declared_words_and_allowed_values(name, anonymize_help) -> None:
    text = anonymize_help[flag_of(name)]
    info = ReleaseParams.describe(name).info
    assert info.label.lower() in text.lower()
    if name == "mechanism":  # the registry describes each mechanism, not a fixed sentence
        for key, mechanism in MECHANISMS.items():
            assert f"{key}: {mechanism.title}" in text
    else:
        assert info.help.rstrip(".") in text
    constraint = ReleaseParams.CONSTRAINTS[name]
    inner = constraint.inner if isinstance(constraint, (Optional, Auto)) else constraint
    if isinstance(inner, Options):
        assert all(repr(v) in text for v in inner.values)
    if isinstance(inner, Number):
        assert constraint.allowed in text
    if allowed_text(name):
        assert allowed_text(name) in text
    if default_text(name):
        assert f"Default: {default_text(name)}." in text


def test_the_usage_line_shows_the_constraints_words() -> None:
    """The words are shown, not enforced by argparse: a word it does not know gets the
    parameter's sentence (tests/test_contracts.py)."""
    actions = {a.dest: a for a in subparser("anonymize")._actions}
    for name, constraint in ReleaseParams.CONSTRAINTS.items():
        if isinstance(constraint, Options) and flag_of(name):
            assert actions[name].choices is None, name
            assert actions[name].metavar == "{" + ",".join(constraint.values) + "}", name
    assert actions["mechanism"].metavar == "{" + ",".join(MECHANISMS) + "}"


#: numeric flags: a text out of range and a text that is no number
NUMERIC = [
    n
    for n, c in ReleaseParams.CONSTRAINTS.items()
    if isinstance(c.inner if isinstance(c, (Optional, Auto)) else c, Number)
    and ReleaseParams.FLAGS[n].group  # a flag of its own (private_bounds is --bounds private=)
]


def test_every_numeric_field_is_a_flag() -> None:
    assert set(NUMERIC) == {
        "k", "t", "epsilon", "n_buckets", "utility_weight", "resample_until_t", "seed",
    }  # fmt: skip


@few_examples(60)
@given(params=valid_params(extremes=True))
def test_any_parameters_come_back_from_their_flags(params) -> None:
    for every in (False, True):
        argv = argv_for(params, every=every)
        args = build_parser().parse_args(["plan", "in.csv", *argv])
        assert params_from_args(args) == params, argv


def test_project_only_fields_cannot_be_said_with_flags() -> None:
    params = ReleaseParams(qi=("a",), k=2, orders={"a": ("low", "high")})
    with pytest.raises(InputError, match="orders cannot be given on the command line"):
        argv_for(params)


def test_the_sweep_takes_lists_of_the_grid_fields() -> None:
    argv = ["in.csv", "-o", "s.csv", "--qi", "x", "--confidential", "y"]
    argv += ["--t", "1.5,2", "--k", "5,10"]
    args = subparser("sweep").parse_args([*argv, "--buckets", "3,auto"])
    assert (args.t, args.k, args.n_buckets) == ("1.5,2", "5,10", "3,auto")
    params = params_from_args(args, k=5, t=1.5)  # the sweep's first point; b read by it
    assert (params.k, params.t, params.n_buckets) == (5, 1.5, None)
    helps = {a.dest: a.help for a in subparser("sweep")._actions}
    assert "e.g. 1.5,2,3" in helps["t"] and "e.g. 5,10" in helps["k"]


@pytest.mark.parametrize(
    ("env", "argv", "code"),
    [
        ("es_ES.UTF-8", [], "es"),
        ("C.UTF-8", ["--lang", "fr"], "fr"),
        ("fr_FR", ["--lang=es"], "es"),
    ],
)
def test_help_speaks_the_readers_language(env, argv, code, monkeypatch, capsys) -> None:
    monkeypatch.setenv("LANG", env)
    monkeypatch.setenv("COLUMNS", "2000")  # one line per flag
    with pytest.raises(SystemExit) as done:
        main(["anonymize", *argv, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    with use_language(code):
        for name in ("k", "qi", "bounds", "missing_confidential"):
            info = ReleaseParams.describe(name).info
            assert _(info.help) in out and _(info.help) != info.help, name
        assert _(FLAG_GROUPS["level"]) + ":" in out
        assert _("Default: {default}.").format(default="bucket") in out
    # and the next command, without the environment's language, is English again
    monkeypatch.setenv("LANG", "C.UTF-8")
    with pytest.raises(SystemExit):
        main(["anonymize", "--help"])
    assert ReleaseParams.describe("k").info.help in capsys.readouterr().out
