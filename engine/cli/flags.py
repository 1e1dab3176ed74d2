"""The release flags, built from the fields' declarations and read back through them.

Every field of :class:`~engine.params.ReleaseParams` declares how it is given on the command
line (:attr:`ReleaseParams.FLAGS <engine.params.ReleaseParams.FLAGS>`: the flag, its
placeholder, its help group, how its text is read), what people read about it
(:attr:`~engine.params.ReleaseParams.FIELDS`) and what it allows (its constraint).
:func:`add_field_flags` makes one argparse flag per field from those alone: the help is the
field's label and help in the reader's language, the allowed values and the default; the
choices are the constraint's words (older words accepted).  :func:`fields_from_args` reads
the flags back, every value through :meth:`ReleaseParams.parse`, so that a bad flag gets the
sentence a project file or the app gets.  :func:`argv_for` is the inverse: the flags that
describe given parameters.

A field is added to the command line by declaring it in ``engine/params.py``; nothing here
names a field except the syntax of the forms ("bounds" takes ``private[=SHARE]``,
"categories" ``COLUMN=CAT|CAT|…``).
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import io
from collections.abc import Iterable
from typing import Any

from engine.errors import InputError, quoted
from engine.i18n import _
from engine.mechanisms import MECHANISMS
from engine.mechanisms.bounds import DEFAULT_SHARE
from engine.params import (
    FLAG_GROUPS,
    Auto,
    Choice,
    FlagInfo,
    Number,
    Optional,
    Options,
    join_categories,
)
from engine.params import ReleaseParams as P

#: the word of ``--bounds`` that asks for private bounds, and its placeholder
PRIVATE = "private"


# -- the texts of the flags: syntax only (the values are checked by ReleaseParams) -----------


def _split(text: str) -> list[str]:
    """The comma-separated items of ``text``, read as one line of a CSV file: an item that
    holds a comma or a double quote is put in double quotes (``age,"Region, coded"``, a quote
    inside doubled: ``"say ""no"" here"``); spaces around items are ignored."""
    if '"' not in text:
        return [item.strip() for item in text.split(",")]
    try:
        return [item.strip() for item in next(csv.reader([text], strict=True))]
    except (csv.Error, StopIteration):
        raise argparse.ArgumentTypeError(
            _(
                "cannot read {text} as a list: put a name that holds a comma or a quote in "
                'double quotes, as in a CSV file (age,"Region, coded"), and double a quote '
                "inside it"
            ).format(text=quoted(text))
        ) from None


def columns(text: str) -> tuple[str, ...]:
    """A comma-separated list of column names (spaces around names are ignored; a name with a
    comma or a quote in double quotes, as in a CSV file)."""
    names = tuple(name for name in _split(text) if name)
    if not names:
        raise argparse.ArgumentTypeError("expected one or more column names, separated by commas")
    return names


def codes(text: str) -> tuple[str, ...]:
    """A comma-separated list of missing-value codes (kept as written; a code with a comma
    or a quote in double quotes, as in a CSV file)."""
    return tuple(_split(text)) or ("",)


def csv_list(items: Iterable[str]) -> str:
    """The inverse of :func:`columns` and :func:`codes`: ``age,"Region, coded"``."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="").writerow(items)
    return buffer.getvalue()


def column_pairs(flag: str, items: Iterable[str], values: tuple[str, ...]) -> dict[str, str]:
    """``["age=numeric"]`` → ``{"age": "numeric"}`` (the values are checked by ReleaseParams)."""
    out: dict[str, str] = {}
    for item in items:
        col, sep, value = item.rpartition("=")  # a TYPE never holds "=", a name may
        if not sep or not col.strip():
            raise InputError(
                _("--type takes COLUMN=TYPE with TYPE one of {allowed}, not {item}.").format(
                    allowed=", ".join(values), item=quoted(item)
                )
                if flag == "--type"
                else _("{flag} takes COLUMN=VALUE, not {item}.").format(
                    flag=flag, item=quoted(item)
                )
            )
        col = col.strip()
        if col in out:
            raise InputError(
                _("{flag} given twice for {column}.").format(flag=flag, column=quoted(col))
            )
        out[col] = value.strip()
    return out


def column_tables(flag: str, items: Iterable[str]) -> dict[str, list[list[str]]]:
    """``["commune=communes.csv"]`` → ``{"commune": rows}``: each FILE read as a table
    (a CSV or a workbook, as an input is read), its header first; ReleaseParams checks it."""
    from engine.io import read_table

    out: dict[str, list[list[str]]] = {}
    for item in items:
        col, sep, path = item.partition("=")
        if not sep or not col.strip() or not path.strip():
            raise InputError(
                _("{flag} takes COLUMN=FILE, not {item!r}.").format(flag=flag, item=item)
            )
        table = read_table(path.strip()).data
        rows = [[str(c) for c in table.columns]]
        rows += [["" if _missing(v) else _cell(v) for v in r] for r in table.to_numpy()]
        out[col.strip()] = rows
    return out


def _missing(value: Any) -> bool:
    try:
        return bool(value is None or value != value)
    except (TypeError, ValueError):
        return False


def _cell(value: Any) -> str:
    from engine.recoding import value_text

    return value_text(value)


def parse_private(items: Iterable[str]) -> tuple[list[str], float | None]:
    """The ``private[=SHARE]`` items taken out of ``--bounds``: (the rest, the share or None).

    SHARE is a fraction (0.1) or a percentage (10%) of ε, strictly between 0 and 1 (the
    range of ``private_bounds``).
    """
    rest, share = [], None
    for item in items:
        word, _eq, value = item.partition("=")
        if word.strip().lower() != PRIVATE or ":" in value:
            rest.append(item)
            continue
        if share is not None:
            raise InputError(_("--bounds private was given twice."))
        # the share's sentence is the parameter's own, as in a project file or the app
        constraint = P.CONSTRAINTS["private_bounds"]
        text = value.strip() or str(DEFAULT_SHARE)
        if not text.endswith("%"):
            share = P.parse("private_bounds", text)
            continue
        try:
            share = constraint.check("private_bounds", float(text[:-1]) / 100)
        except (ValueError, InputError):
            raise constraint.fail("private_bounds", text, typed=text) from None
    return rest, share


def parse_bounds(items: Iterable[str]) -> dict[str, tuple[float, float]]:
    """``["Income=0:250000"]`` → ``{"Income": (0.0, 250000.0)}``: the syntax only; the values
    are checked by :class:`~engine.params.ReleaseParams`, so that bounds given on the command
    line, in a project file or in the GUI are refused with the same sentence."""
    bounds: dict[str, tuple[float, float]] = {}
    for item in items:
        column, sep, span = item.rpartition("=")
        lo_text, colon, hi_text = span.partition(":")
        if not sep or not column or not colon:
            raise InputError(
                _("--bounds {item}: write COLUMN=LO:HI, e.g. Income=0:250000.").format(
                    item=repr(item)
                )
            )
        try:
            lo, hi = float(lo_text), float(hi_text)
        except ValueError:
            raise InputError(
                _("--bounds {item}: LO and HI must be numbers, e.g. Income=0:250000.").format(
                    item=repr(item)
                )
            ) from None
        # the range (finite, LO < HI) is checked by ReleaseParams, as for a project file
        if column in bounds:
            raise InputError(_("--bounds given twice for {column}.").format(column=quoted(column)))
        bounds[column] = (lo, hi)
    return bounds


def parse_categories(items: Iterable[str]) -> dict[str, str]:
    """``["diag=cold|flu|HIV"]`` → ``{"diag": "cold|flu|HIV"}``: the syntax only (COLUMN=
    before the list, each column once); the list is read and checked by
    :class:`~engine.params.ReleaseParams` (:func:`~engine.params.split_categories`), so that
    categories given on the command line, in a project file or in the GUI are read alike and
    refused with the same sentence.  The column is what comes before the first "=" (a
    category may hold one)."""
    categories: dict[str, str] = {}
    for item in items:
        column, sep, listed = item.partition("=")
        column = column.strip()
        if not sep or not column:
            raise InputError(
                _(
                    "--categories {item}: write COLUMN=CATEGORY|CATEGORY|…, e.g. diag=cold|flu|HIV."
                ).format(item=repr(item))
            )
        if column in categories:
            raise InputError(
                _("--categories given twice for {column}.").format(column=quoted(column))
            )
        categories[column] = listed
    return categories


# -- what --help says ------------------------------------------------------------------------


def flag_of(name: str) -> str:
    """The flag that gives field ``name`` (``n_buckets`` → ``--buckets``; a field given through
    another field's flag → that flag; "" for a field of project files only)."""
    info = P.FLAGS[name]
    return flag_of(info.via) if info.via else info.option(name)


def default_of(name: str) -> Any:
    """The value field ``name`` takes when its flag is not given."""
    (spec,) = (f for f in dataclasses.fields(P) if f.name == name)
    if spec.default is not dataclasses.MISSING:
        return spec.default
    if spec.default_factory is not dataclasses.MISSING:
        return spec.default_factory()
    return None


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".!?" else text + "."


def _label(name: str) -> str:
    label = _(P.describe(name).info.label)
    return label[:1].upper() + label[1:]


def option_words(name: str) -> dict[str, str] | None:
    """What each allowed word of a field means, where a registry says it (the mechanism)."""
    if name == "mechanism":
        return {key: _(mechanism.title) for key, mechanism in MECHANISMS.items()}
    return None


def allowed_text(name: str) -> str:
    """The values a flag takes, as the field's constraint states them ("" for names)."""
    constraint, info = P.CONSTRAINTS[name], P.FLAGS[name]
    if info.form == "pairs" and info.values:
        return Options(values=info.values).allowed
    inner = constraint.inner if isinstance(constraint, Optional) else constraint
    if isinstance(inner, (Number, Auto, Options)):
        text = inner.allowed
        if isinstance(inner, Choice) and inner.aliases:
            text += "; " + ", ".join(
                _("{old} is read as {new}").format(old=repr(old), new=repr(new))
                for old, new in inner.aliases.items()
            )
        return text
    return ""


def default_text(name: str) -> str:
    """The default a flag's help states ("" when there is nothing to state)."""
    info, value = P.FLAGS[name], default_of(name)
    if info.form in ("switch", "off"):
        return ""
    if value is None and isinstance(P.CONSTRAINTS[name], Auto):
        return "auto"
    if value is None or value == () or value == {}:
        return ""
    return str(value)


def flag_help(name: str, *, grid: bool = False) -> str:
    """The ``--help`` text of field ``name``'s flag, in the current language."""
    info = P.FLAGS[name]
    parts = [
        _("Turns off: {label}.").format(label=_(P.describe(name).info.label))
        if info.form == "off"
        else _sentence(_label(name))
    ]
    words = option_words(name)
    if words is not None:  # each word as its registry describes it, not a fixed list
        parts.append(_sentence("; ".join(f"{key}: {text}" for key, text in words.items())))
    else:
        parts.append(_sentence(_(P.describe(name).info.help)))
    if info.form in ("columns", "codes"):
        parts.append(
            _(
                "Separate them with commas; put one that holds a comma or a quote in double "
                'quotes, as in a CSV file: age,"Region, coded".'
            )
        )
    if allowed := allowed_text(name):
        parts.append(_("Allowed: {allowed}.").format(allowed=allowed))
    if default := default_text(name):
        parts.append(_("Default: {default}.").format(default=default))
    for other, other_info in P.FLAGS.items():  # fields given through this flag
        if other_info.via == name:
            parts.append(
                _("{PRIVATE}[=SHARE]: {sentence}").format(
                    PRIVATE=PRIVATE, sentence=_sentence(_label(other))
                )
            )
            parts.append(_sentence(_(P.describe(other).info.help)))
            parts.append(_("Allowed: {allowed}.").format(allowed=allowed_text(other)))
            parts.append(_("Default: {default}.").format(default=f"{DEFAULT_SHARE:g}"))
    if grid and info.grid:
        parts.append(
            _("In a sweep: a list of values to try, e.g. {example}.").format(example=info.grid)
        )
    return " ".join(p for p in parts if p).replace("%", "%%")  # argparse formats with %


# -- building the flags ----------------------------------------------------------------------


def _metavar(info: FlagInfo, grid: bool) -> str | None:
    if grid and info.grid and info.metavar:
        return f"{info.metavar}1,{info.metavar}2,…"
    return info.metavar or None


def _argument(name: str, info: FlagInfo, grid: bool) -> dict[str, Any]:
    """argparse's keywords for the flag of field ``name``."""
    kwargs: dict[str, Any] = {"dest": name, "default": None, "help": flag_help(name, grid=grid)}
    if info.form == "switch":
        return {**kwargs, "action": "store_true"}
    if info.form == "off":
        return {**kwargs, "action": "store_false"}
    kwargs["metavar"] = _metavar(info, grid)
    if info.required:
        kwargs["required"] = True
    if info.form in ("pairs", "bounds", "categories", "files"):
        return {**kwargs, "action": "append"}
    if info.form == "columns":
        return {**kwargs, "type": columns}
    if info.form == "codes":
        return {**kwargs, "type": codes}
    constraint = P.CONSTRAINTS[name]
    if isinstance(constraint, Options) and not kwargs["metavar"]:
        # the words in the usage line, but no argparse choices: a word it does not know gets
        # the parameter's sentence (ReleaseParams.parse), as in a project file or the app
        kwargs["metavar"] = "{" + ",".join(constraint.values) + "}"
    return kwargs


def add_field_flags(
    parser: argparse.ArgumentParser, *, grid: bool = False, groups: Iterable[str] | None = None
) -> None:
    """One flag per declared field of ``groups`` (every group by default), each group under
    its title; with ``grid`` (``tclose sweep``) the grid fields take lists and a privacy
    level (one of the ``one_of`` flags) must be given."""
    wanted = list(FLAG_GROUPS) if groups is None else list(groups)
    titles = {key: parser.add_argument_group(_(FLAG_GROUPS[key])) for key in wanted}
    exclusive: dict[str, Any] = {}
    for name, info in P.FLAGS.items():
        if info.group not in titles:
            continue
        container: Any = titles[info.group]
        if info.one_of:
            if info.one_of not in exclusive:
                exclusive[info.one_of] = container.add_mutually_exclusive_group(required=grid)
            container = exclusive[info.one_of]
        container.add_argument(info.option(name), **_argument(name, info, grid))


# -- reading them back -----------------------------------------------------------------------


def is_list(text: Any) -> bool:
    """Whether a grid flag's text holds several values (a sweep's axis)."""
    return isinstance(text, str) and "," in text


def _read(name: str, info: FlagInfo, raw: Any) -> dict[str, Any]:
    """The field values (more than one for a flag that also gives another field)."""
    if info.form == "value":
        return {name: P.parse(name, raw)}
    if info.form == "pairs":
        return {name: column_pairs(info.option(name), raw, info.values)}
    if info.form == "files":
        return {name: column_tables(info.option(name), raw)}
    if info.form == "categories":
        return {name: parse_categories(raw)}
    if info.form == "bounds":
        rest, share = parse_private(raw)
        out: dict[str, Any] = {name: parse_bounds(rest)}
        out.update({other: share for other, o in P.FLAGS.items() if o.via == name})
        return out
    return {name: raw}  # columns, codes (typed by argparse), switch, off


def fields_from_args(
    args: argparse.Namespace,
    *,
    groups: Iterable[str] | None = None,
    skip: Iterable[str] = (),
    defaults: bool = False,
) -> dict[str, Any]:
    """ReleaseParams keyword arguments from the parsed flags of ``groups`` (all by default).

    Fields whose flag was not given are left out (the parameters' defaults apply), or given
    their default with ``defaults``; ``skip`` names fields read elsewhere (a sweep's axes).
    """
    wanted = set(FLAG_GROUPS if groups is None else groups)
    skipped = set(skip)
    out: dict[str, Any] = {}
    for name, info in P.FLAGS.items():
        home = P.FLAGS[info.via].group if info.via else info.group
        if home not in wanted or name in skipped:
            continue
        if defaults:
            out.setdefault(name, default_of(name))
        if info.via:
            continue
        raw = getattr(args, name, None)
        if raw is not None:
            out.update(_read(name, info, raw))
    return out


# -- and the other way -----------------------------------------------------------------------


def _text(value: Any) -> str:
    if isinstance(value, float):
        return repr(value)
    return str(getattr(value, "value", value))


def _pair_text(value: Any) -> str:
    """A COLUMN=VALUE pair's value: cut points as 15:25:45."""
    if isinstance(value, (tuple, list)):
        return ":".join(_text(v) for v in value)
    return _text(value)


def field_argv(name: str, value: Any) -> list[str]:
    """The flags that give field ``name`` the value ``value`` ([] for a field without a flag
    or a value its flag cannot say, e.g. ``joint=True``: it is the default)."""
    info = P.FLAGS[name]
    flag = flag_of(name)
    if not flag:
        return []
    if info.via:
        return [] if value is None else [f"{flag}={PRIVATE}={_text(value)}"]
    if info.form == "switch":
        return [flag] if value else []
    if info.form == "off":
        return [] if value else [flag]
    if info.form in ("columns", "codes"):
        return [f"{flag}={csv_list(value)}"] if value else []
    if info.form == "pairs":
        return [f"{flag}={col}={_pair_text(v)}" for col, v in dict(value).items()]
    if info.form == "files":
        if value:
            raise InputError(
                _(
                    "{name} are read from files ({flag} COLUMN=FILE); save a project file and use"
                    " tclose run to give them without one."
                ).format(name=name, flag=flag)
            )
        return []
    if info.form == "bounds":
        return [f"{flag}={col}={_text(lo)}:{_text(hi)}" for col, (lo, hi) in dict(value).items()]
    if info.form == "categories":
        return [
            f"{flag}={col}={cats if isinstance(cats, str) else join_categories(cats)}"
            for col, cats in dict(value).items()
        ]
    if value is None:
        return [flag, "auto"] if isinstance(P.CONSTRAINTS[name], Auto) else []
    text = _text(value)
    return [f"{flag}={text}"] if text.startswith("-") else [flag, text]


def argv_for(params: P, *, every: bool = False) -> list[str]:
    """The flags of ``tclose anonymize``/``plan`` that describe ``params`` (fields at their
    default are left out unless ``every``); :func:`fields_from_args` reads them back equal.

    Fields of project files only (category orders, per-column missing codes) cannot be said
    with flags: they raise :class:`~engine.errors.InputError` when set.
    """
    out: list[str] = []
    for name, info in P.FLAGS.items():
        value = getattr(params, name)
        default = default_of(name)
        if not info.group and not info.via:
            if value != default:
                raise InputError(
                    _(
                        "{name} cannot be given on the command line ({no_flag}); save a project "
                        "file and use tclose run."
                    ).format(name=name, no_flag=info.no_flag)
                )
            continue
        if not every and value == default and not info.required:
            continue
        out += field_argv(name, value)
    return out


def join_argv(argv: Iterable[str]) -> str:
    """``argv`` as one shell line (quoted where needed), e.g. to print a command."""
    import shlex

    return " ".join(shlex.quote(a) for a in argv)


__all__ = [
    "add_field_flags",
    "allowed_text",
    "argv_for",
    "codes",
    "column_pairs",
    "column_tables",
    "columns",
    "csv_list",
    "default_of",
    "default_text",
    "field_argv",
    "fields_from_args",
    "flag_help",
    "flag_of",
    "is_list",
    "join_argv",
    "option_words",
    "parse_bounds",
    "parse_categories",
    "parse_private",
]
