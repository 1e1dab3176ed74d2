"""The one description of a release: :class:`ReleaseParams`.

The command line builds it from its flags, the GUI holds one and replaces it on every edit, a
project file stores :meth:`ReleaseParams.to_dict` and reads it back with
:meth:`ReleaseParams.from_dict`, and the run summary quotes the same dictionary.  There is no
other copy of the settings, so no page, file or report can disagree with the run.

Every field is checked once, here, against one declared constraint (the model is
scikit-learn's ``_parameter_constraints``): types, ranges, allowed values, then the rules that
tie fields together (bounds only with noise, t or ε but not both, …).  A bad value raises
:class:`~engine.errors.InputError` naming the field and what it allows, with the same words
whichever way the value came in: a flag, a project file or a GUI field.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from numbers import Integral, Real
from typing import Any, ClassVar, Literal

from engine.errors import InputError, cut, listing, quoted
from engine.i18n import N_, SOURCE, _, language
from engine.mechanisms import MECHANISMS
from engine.mechanisms.noise import MIN_NOISE_EPSILON
from engine.recoding import Hierarchy
from engine.roles import ColumnType
from engine.text import number

QiOutput = Literal["centroid", "range", "common"]
ConfidentialOutput = Literal["mean", "median", "label"]
#: the name of a registered mechanism (:data:`engine.mechanisms.MECHANISMS`)
Mechanism = str
MissingConfidential = Literal["bucket", "drop"]
Transform = Literal["none", "log"]
HouseholdOutput = Literal["recode", "none"]
#: who may obtain the release (the SDC guidance's release types, IHSN SDC practice guide)
ReleaseType = Literal["public", "scientific", "licensed", "enclave"]
#: the longest intruder scenario (a short text; the DDI and the About sheet quote it)
MAX_SCENARIO = 1000
WeightOutput = Literal["class", "keep", "none"]

#: the largest ε accepted: t = exp(ε/2) and e^ε must stay finite numbers (e^700 ≈ 1e304)
MAX_EPSILON = 700.0
#: the largest size of a number tclose computes with (public bounds, protected values): sums
#: of squares over millions of records must stay finite (1e150² · 1e9 ≪ 1.8e308)
MAX_MAGNITUDE = 1e150
#: the largest seed (numpy's generators take any integer in [0, 2^64))
MAX_SEED = 2**64 - 1


# -- constraints --------------------------------------------------------------------------


@dataclass(frozen=True)
class Invalid:
    """A value a constraint refuses (:meth:`Constraint.invalid`), for the common test that
    gives it to every route a value comes in by (a project file, a flag, the app)."""

    value: Any
    #: a flag's text can say it: a value of the form the flag reads (a number, a word, a list
    #: of names, COLUMN=VALUE pairs); False for a value only a project file or the app can
    #: hold (a number where a list is wanted, a blank text a flag reads as "none")
    said: bool = True


def _plain(x: float) -> float | int:
    """A whole-valued limit as an int, so that a flag's text and a project file's number
    show the same ("701", not "701.0")."""
    return int(x) if float(x).is_integer() and abs(x) < 1e15 else x


def _not_one_of(values: Iterable[str]) -> str:
    """A word that is none of ``values``."""
    word = "unknown"
    while word in values:
        word += "-word"
    return word


class Constraint:
    """What one parameter allows; :meth:`check` returns the value in its canonical form.

    Its words are built when a message or a ``--help`` is (never at import): the language
    is chosen at run time, so :attr:`allowed` reads in the current one.  The field's name in
    a message stays as it is typed in project files and flags.
    """

    #: the allowed values in English, marked with ``N_`` (:attr:`allowed` translates it)
    what: str = ""

    @property
    def allowed(self) -> str:
        """How the allowed values read in a message, e.g. "a whole number ≥ 1"."""
        return _(self.what) if self.what else ""

    def check(self, name: str, value: Any) -> Any:  # pragma: no cover - interface
        raise NotImplementedError

    def parse(self, name: str, text: str) -> Any:
        """The value a command-line flag's text stands for (same checks, same message)."""
        return self.check(name, text)

    def invalid(self) -> tuple[Invalid, ...]:  # pragma: no cover - interface
        """Values this constraint refuses, at least one (the model is scikit-learn's
        ``generate_invalid_param_val``): ``tests/test_contracts.py`` gives each to every
        route a value comes in by and expects this constraint's one sentence from all."""
        raise NotImplementedError

    def fail(self, name: str, value: Any, *, typed: str | None = None) -> InputError:
        """The field's sentence for a bad ``value``; ``typed``: the text as the user wrote it
        (a flag's ``1e400``), shown instead of the number it was read as."""
        shown = cut(typed, 60) if typed is not None else _show(value)
        return InputError(
            _("{name} must be {allowed}, not {value}.").format(
                name=name, allowed=self.allowed, value=shown
            )
        )


def _show(value: Any) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        value = int(value)
    text = repr(value) if isinstance(value, str) else str(value)
    if isinstance(value, (list, dict, tuple)):
        text = type(value).__name__ + (f" {text}" if len(text) <= 40 else "")
    return cut(text, 60)


@dataclass(frozen=True)
class Number(Constraint):
    """A real (or whole) number in an interval; booleans and non-finite values never pass."""

    low: float | None = None
    high: float | None = None
    #: whether the ends themselves are allowed
    closed: tuple[bool, bool] = (True, True)
    whole: bool = False

    @property
    def allowed(self) -> str:
        parts = []
        if self.low is not None:
            parts.append(f"{'≥' if self.closed[0] else '>'} {_num(self.low)}")
        if self.high is not None:
            parts.append(f"{'≤' if self.closed[1] else '<'} {_num(self.high)}")
        if len(parts) == 2:
            text = (
                _("a whole number {low} and {high}")
                if self.whole
                else _("a number {low} and {high}")
            )
            return text.format(low=parts[0], high=parts[1])
        if parts:
            text = _("a whole number {bound}") if self.whole else _("a number {bound}")
            return text.format(bound=parts[0])
        return _("a whole number") if self.whole else _("a number")

    def check(self, name: str, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, Real):
            raise self.fail(name, value)
        if self.whole:
            if isinstance(value, float) and value.is_integer():
                value = int(value)  # 5.0 in a project file is the whole number 5
            if not isinstance(value, Integral):
                raise self.fail(name, value)
            value = int(value)
        else:
            value = float(value)
            if not math.isfinite(value):
                raise self.fail(name, value)
        lo_ok = self.low is None or (value >= self.low if self.closed[0] else value > self.low)
        hi_ok = self.high is None or (value <= self.high if self.closed[1] else value < self.high)
        if not (lo_ok and hi_ok):
            raise self.fail(name, value)
        return value

    def parse(self, name: str, text: str) -> Any:
        """The number ``text`` stands for, in any notation (``1000``, ``1e3``, ``1000.0`` are
        the whole number 1000, read exactly); a refusal quotes the text as it was typed."""
        text = text.strip()
        try:
            value: Any = float(text)
        except ValueError:
            raise self.fail(name, text) from None
        if self.whole and math.isfinite(value):
            exact = Decimal(text)  # float() read it, so Decimal() reads it too
            if exact == exact.to_integral_value():
                value = int(exact)  # 1e20 is 10**20, not float(1e20)'s neighbour
        try:
            return self.check(name, value)
        except InputError:
            raise self.fail(name, value, typed=text) from None

    def invalid(self) -> tuple[Invalid, ...]:
        out = [Invalid([1], said=False)]  # a list where a number is wanted: files and the app
        if self.low is not None:
            below = self.low if not self.closed[0] else self.low - 1
            out.append(Invalid(_plain(below)))
        if self.high is not None:
            above = self.high if not self.closed[1] else max(self.high + 1, self.high * 2)
            out.append(Invalid(_plain(above)))
        if self.whole:
            out.append(Invalid((self.low or 0) + 1.5))
        return (*out, Invalid("abc"))


def _num(x: float) -> str:
    """A limit in a message: in English as messages always wrote it ("700", "1e+150": scripts
    and tests match them), in another language as the rest of the engine writes numbers for
    its readers (decimal comma, powers of ten)."""
    if language() != SOURCE:
        return number(x, digits=3)
    return f"{x:g}" if abs(x) < 1e6 else f"{x:.3g}"


@dataclass(frozen=True)
class Options(Constraint):
    """One of a fixed set of words."""

    values: tuple[str, ...] = ()

    @property
    def allowed(self) -> str:
        quoted = [repr(v) for v in self.values]
        if len(quoted) == 1:
            return quoted[0]
        return _("one of {values} or {last}").format(values=", ".join(quoted[:-1]), last=quoted[-1])

    def check(self, name: str, value: Any) -> Any:
        if not isinstance(value, str) or value not in self.values:
            raise self.fail(name, value)
        return value

    def invalid(self) -> tuple[Invalid, ...]:
        return (
            Invalid(_not_one_of([*self.values, *getattr(self, "aliases", ())])),
            Invalid(1, said=False),
        )


@dataclass(frozen=True)
class Choice(Options):
    """One of a fixed set of words, or an older word that stands for one of them.

    ``aliases`` maps the older word to the current one (a project file written before a
    word was renamed still loads, and is written back with the current word).
    """

    aliases: Mapping[str, str] = field(default_factory=dict)

    def check(self, name: str, value: Any) -> Any:
        if isinstance(value, str) and value in self.aliases:
            return self.aliases[value]
        return super().check(name, value)


@dataclass(frozen=True)
class Auto(Constraint):
    """None or the word "auto" (the engine chooses; stored as None), or what ``inner`` allows."""

    inner: Constraint = field(default_factory=Constraint)

    @property
    def allowed(self) -> str:
        return _("'auto' or {allowed}").format(allowed=self.inner.allowed)

    def check(self, name: str, value: Any) -> Any:
        if value is None or (isinstance(value, str) and value.strip().lower() == "auto"):
            return None
        try:
            return self.inner.check(name, value)
        except InputError as err:
            raise self._widen(err) from None

    def parse(self, name: str, text: str) -> Any:
        if not text.strip() or text.strip().lower() == "auto":
            return None
        try:
            return self.inner.parse(name, text)
        except InputError as err:
            raise self._widen(err) from None

    def invalid(self) -> tuple[Invalid, ...]:
        return _blank_is_none(self.inner.invalid())

    def _widen(self, err: InputError) -> InputError:
        """The inner constraint's message, naming "auto" among the allowed values.

        Both texts are built now, in the current language, so the inner one is found in the
        message the inner constraint just built in that language.
        """
        return InputError(err.message.replace(self.inner.allowed, self.allowed, 1))


@dataclass(frozen=True)
class Flag(Constraint):
    """True or False, never a number or a word standing for one."""

    what: ClassVar[str] = N_("true or false")

    def check(self, name: str, value: Any) -> Any:
        if not isinstance(value, bool):
            raise self.fail(name, value)
        return value

    def invalid(self) -> tuple[Invalid, ...]:
        # an on/off flag says true or false only
        return (Invalid("yes", said=False), Invalid(1, said=False))


def _repeated(values: Iterable[str]) -> list[str]:
    """The values that occur more than once, sorted (one pass: projects name 80,000 columns)."""
    return sorted(v for v, n in Counter(values).items() if n > 1)


@dataclass(frozen=True)
class Texts(Constraint):
    """A list of texts (column names, missing-value codes), stored as a tuple."""

    #: what the texts are, in English marked with ``N_`` (translated in messages)
    what: str = N_("a list of texts")
    #: column names must be non-empty and unique; codes may be anything
    names: bool = False

    def check(self, name: str, value: Any) -> Any:
        if isinstance(value, str) or not isinstance(value, (list, tuple)):
            raise self.fail(name, value)
        if not all(isinstance(v, str) for v in value):
            raise self.fail(name, value)
        if self.names:
            if any(not v.strip() for v in value):
                raise InputError(_("{name}: a column name cannot be empty.").format(name=name))
            dupes = _repeated(value)
            if dupes:
                raise InputError(
                    _("{name} names {columns} twice.").format(name=name, columns=listing(dupes))
                )
        return tuple(value)

    def invalid(self) -> tuple[Invalid, ...]:
        out = [Invalid("a", said=False), Invalid(["a", 1], said=False)]
        if self.names:  # a flag drops empty names from its list: only files hold them
            out += [Invalid(["a", "b", "a"]), Invalid(["a", " "], said=False)]
        return tuple(out)


@dataclass(frozen=True)
class Optional(Constraint):
    """None, or what ``inner`` allows."""

    inner: Constraint = field(default_factory=Constraint)

    @property
    def allowed(self) -> str:
        return self.inner.allowed

    def check(self, name: str, value: Any) -> Any:
        return None if value is None else self.inner.check(name, value)

    def parse(self, name: str, text: str) -> Any:
        return None if not text.strip() else self.inner.parse(name, text)

    def invalid(self) -> tuple[Invalid, ...]:
        return _blank_is_none(self.inner.invalid())


def _blank_is_none(values: Iterable[Invalid]) -> tuple[Invalid, ...]:
    """An optional field's invalid values: a blank text is refused in a file but means
    "none" as a flag's text (:meth:`Optional.parse`), so a flag cannot say it."""
    return tuple(
        Invalid(v.value, v.said and not (isinstance(v.value, str) and not v.value.strip()))
        for v in values
    )


@dataclass(frozen=True)
class Text(Constraint):
    """One short text (at most ``longest`` characters, no control characters but line
    breaks)."""

    longest: int = 1000

    @property
    def allowed(self) -> str:
        return _("a text of at most {n} characters").format(n=self.longest)

    def check(self, name: str, value: Any) -> Any:
        if not isinstance(value, str) or len(value) > self.longest:
            raise self.fail(name, value)
        if any(ord(c) < 32 and c not in "\n\t" for c in value):
            raise self.fail(name, value)
        return value.strip()

    def invalid(self) -> tuple[Invalid, ...]:
        return (Invalid("x" * (self.longest + 1)), Invalid("a\x01b"), Invalid(5, said=False))


@dataclass(frozen=True)
class Name(Constraint):
    """One column name (a non-empty text)."""

    what: ClassVar[str] = N_("a column name")

    def check(self, name: str, value: Any) -> Any:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(name, value)
        return value

    def invalid(self) -> tuple[Invalid, ...]:
        return (Invalid(" "), Invalid(5, said=False))


@dataclass(frozen=True)
class PerColumn(Constraint):
    """A mapping column name → value, each value checked by ``value`` (a function)."""

    value: Callable[[str, Any], Any] = lambda where, v: v
    #: values one column's ``value`` refuses (its invalid values, declared beside it)
    bad: tuple[Invalid, ...] = ()
    what: ClassVar[str] = N_("an object of column: value")

    def check(self, name: str, value: Any) -> Any:
        if not isinstance(value, Mapping):
            raise self.fail(name, value)
        out = {}
        for column, item in value.items():
            if not isinstance(column, str) or not column.strip():
                raise InputError(
                    _("{name}: column names must be non-empty texts.").format(name=name)
                )
            out[column] = self.value(f"{name}[{column!r}]", item)
        return out

    def invalid(self) -> tuple[Invalid, ...]:
        # the column is one a test file has: a file's own column names come through a flag
        items = tuple(Invalid({"age": b.value}, b.said) for b in self.bad)
        return (Invalid(["age"], said=False), Invalid({" ": 1}, said=False), *items)


def _column_type(where: str, value: Any) -> ColumnType:
    allowed = ", ".join(repr(t.value) for t in ColumnType)
    if isinstance(value, ColumnType):
        return value
    if not isinstance(value, str) or value not in {t.value for t in ColumnType}:
        raise InputError(
            _("{where} must be one of {allowed}, not {value}.").format(
                where=where, allowed=allowed, value=_show(value)
            )
        )
    return ColumnType(value)


def _category_order(where: str, value: Any) -> tuple[str, ...]:
    return Texts(what=N_("a list of category names")).check(where, value)


def _codes(where: str, value: Any) -> tuple[str, ...]:
    return Texts(what=N_("a list of missing-value codes")).check(where, value)


def _hierarchy(where: str, value: Any) -> tuple[tuple[str, ...], ...]:
    """A hierarchy as a table of texts (header first), checked (engine.recoding)."""
    if isinstance(value, Hierarchy):
        return tuple(tuple(r) for r in value.to_rows())
    return tuple(tuple(r) for r in Hierarchy.from_rows(value, where).to_rows())


def _cuts(where: str, value: Any) -> tuple[float, ...]:
    """Cut points: increasing finite numbers, as a list or as "15:25:45"."""
    if isinstance(value, str):
        parts = [p for p in value.replace(",", ":").split(":") if p.strip()]
        with contextlib.suppress(ValueError):  # else refused below, quoted as written
            value = [float(p) for p in parts]
    # numbers read as the flag writes them (15:25:45), from a flag or a project file alike
    numbers = (
        isinstance(value, (list, tuple))
        and value
        and all(isinstance(v, Real) and not isinstance(v, bool) for v in value)
    )
    shown = ":".join(_show(v) for v in value) if numbers else _show(value)
    message = _("{where} must be increasing cut points (e.g. 15:25:45), not {value}.").format(
        where=where, value=shown
    )
    if not isinstance(value, (list, tuple)) or not value:
        raise InputError(message)
    number = Number(low=-MAX_MAGNITUDE, high=MAX_MAGNITUDE)
    try:
        cuts = tuple(number.check(where, v) for v in value)
    except InputError:
        raise InputError(message) from None
    if any(b <= a for a, b in itertools.pairwise(cuts)):
        raise InputError(message)
    return cuts


def _code_value(where: str, value: Any) -> float:
    """A public top or bottom code: a finite number (a text of one from a flag)."""
    if isinstance(value, str):
        return Number(low=-MAX_MAGNITUDE, high=MAX_MAGNITUDE).parse(where, value)
    return Number(low=-MAX_MAGNITUDE, high=MAX_MAGNITUDE).check(where, value)


def _bounds(where: str, value: Any) -> tuple[float, float]:
    # a pair reads [5, 1] whether it came as a JSON list or a parsed flag (a tuple)
    pair = isinstance(value, (list, tuple)) and len(value) == 2
    shown = f"[{_show(value[0])}, {_show(value[1])}]" if pair else _show(value)
    message = _(
        "{where} must be [low, high] with numbers between -{max} and {max}, low < high, "
        "not {value}."
    ).format(where=where, max=_num(MAX_MAGNITUDE), value=shown)
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or len(value) != 2:
        raise InputError(message)
    number = Number(low=-MAX_MAGNITUDE, high=MAX_MAGNITUDE)
    try:
        lo, hi = (number.check(where, v) for v in value)
    except InputError:
        raise InputError(message) from None
    if not lo < hi:  # the numbers are fine: only their order is said
        raise InputError(
            _("{where} must be [low, high] with low < high, not {value}.").format(
                where=where, value=shown
            )
        )
    return (lo, hi)


#: what separates the categories of one column in a text: ``cold|flu|HIV``
CATEGORY_SEPARATOR = "|"


def split_categories(text: str) -> list[str]:
    """The categories a text lists: ``cold|flu|HIV`` → ``["cold", "flu", "HIV"]``.

    The one reader of the form, for a flag (``--categories diag=cold|flu|HIV``), a project
    file and the app alike.  A category that holds a "|" or a double quote is put in double
    quotes, as in a CSV file (``"A|B"|C``), a quote inside doubled; spaces around a category
    (and around its quotes) are ignored.  Raises ValueError when a quote does not close, or
    something other than spaces follows a closing quote before the next "|".
    """
    out: list[str] = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i < n and text[i] == '"':
            chars, i = [], i + 1
            while True:
                if i >= n:
                    raise ValueError(text)  # the quote does not close
                if text[i] == '"':
                    if text[i + 1 : i + 2] == '"':  # a quote inside, doubled
                        chars.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                chars.append(text[i])
                i += 1
            while i < n and text[i].isspace():
                i += 1
            if i < n and text[i] != CATEGORY_SEPARATOR:
                raise ValueError(text)
            out.append("".join(chars).strip())
        else:
            end = text.find(CATEGORY_SEPARATOR, i)
            end = n if end < 0 else end
            out.append(text[i:end].strip())
            i = end
        if i >= n:
            return out
        i += 1  # the separator


def join_categories(categories: Iterable[str]) -> str:
    """The text :func:`split_categories` reads back as ``categories``."""

    def one(category: str) -> str:
        if CATEGORY_SEPARATOR in category or '"' in category:
            return '"' + category.replace('"', '""') + '"'
        return category

    return CATEGORY_SEPARATOR.join(one(c) for c in categories)


def _categories(where: str, value: Any) -> tuple[str, ...]:
    """A column's public categories: two or more different, non-empty texts, as a list or
    as a text ``cold|flu|HIV`` (:func:`split_categories`), each without surrounding spaces."""
    # a list and the text that writes it are shown alike (a flag's text is read here too)
    if isinstance(value, str) or _texts(value):
        shown = quoted(value if isinstance(value, str) else join_categories(value), 60)
    else:
        shown = _show(value)
    message = _(
        "{where} must be two or more different categories, as a list or as a text "
        "such as cold|flu|HIV, not {value}."
    ).format(where=where, value=shown)
    if isinstance(value, str):
        try:
            value = split_categories(value)
        except ValueError:
            raise InputError(message) from None
    if not _texts(value):
        raise InputError(message)
    categories = tuple(v.strip() for v in value)
    if any(not c for c in categories):
        raise InputError(_("{where}: a category cannot be empty.").format(where=where))
    dupes = _repeated(categories)
    if dupes:
        raise InputError(
            _("{where} names {categories} twice.").format(where=where, categories=listing(dupes))
        )
    if len(categories) < 2:
        raise InputError(message)
    return categories


def _texts(value: Any) -> bool:
    """Whether ``value`` is a list (or tuple) of texts."""
    return isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)


# -- what people read about a field -------------------------------------------------------


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name Qt's lupdate knows
    """Mark ``text`` for the app's translation files (context ``params``); no Qt here."""
    return text


@dataclass(frozen=True)
class FieldInfo:
    """What a person reads about one field, declared once beside its constraint.

    The desktop app builds a field's widget from it (label, tooltip, accessible name and
    description, unit, range, step), so that the widget and the engine cannot disagree on
    what a field allows (the model is napari's settings fields, whose ``title`` and
    ``description`` make its preferences dialog).  The texts are English and marked for
    translation in the context ``params``.
    """

    #: the field's name for people ("smallest group size k")
    label: str
    #: one or two sentences: what it does and which way is more private
    help: str = ""
    #: the unit of the value as shown ("records", "%"); "" when it has none
    unit: str = ""
    #: the symbol the field is known by in formulas ("k", "t", "ε"); "" when none
    symbol: str = ""
    #: decimals a value is offered with when the app computes it (t from ε) or steps it;
    #: a value as given is always kept and shown exactly, never rounded to these
    decimals: int = 0
    #: how much one step (arrow key, spin button) changes the value
    step: float = 1.0
    #: the app shows value × scale (100: a share shown in percent)
    scale: float = 1.0


#: the help groups of the command line's release flags, in the order ``--help`` lists them
#: (the command line's words only: marked for the engine's catalogues, not the app's)
FLAG_GROUPS: dict[str, str] = {
    "columns": N_("columns"),
    "survey": N_("survey files: households and sampling weights"),
    "level": N_("privacy level"),
    "form": N_("released form"),
    "noise": N_("noise mechanism (ε-differential privacy for the confidential columns)"),
    "release": N_("release type and intruder scenario"),
    "recoding": N_("recoding of quasi-identifiers before the grouping"),
}


@dataclass(frozen=True)
class FlagInfo:
    """How a field is given on the command line, declared beside its :class:`FieldInfo`.

    ``tclose anonymize``, ``plan`` and ``sweep`` build every release flag from these, with the
    help text from the field's :class:`FieldInfo` and the allowed values and default from its
    constraint (:func:`engine.cli.params_args.add_release_arguments`), so that a new field
    gets its flag by being declared here and nowhere else.
    """

    #: the help group it is listed in (a key of :data:`FLAG_GROUPS`); "" = no flag of its own
    group: str = ""
    #: the flag, when it is not ``--`` + the field's name with dashes
    flag: str = ""
    #: the placeholder of its value in ``--help`` ("COL,…"); "" for an on/off flag
    metavar: str = ""
    #: how the flag's text becomes the value: "value" (one value, read by
    #: :meth:`ReleaseParams.parse`), "columns" (names separated by commas), "codes" (codes
    #: separated by commas, kept as written), "switch" (on when given), "off" (a True field
    #: the flag turns off), "pairs" (COLUMN=VALUE, the flag repeated per column), "bounds"
    #: (COLUMN=LO:HI per column, or private[=SHARE], which sets ``private_bounds``),
    #: "categories" (COLUMN=CAT|CAT|… per column, :func:`split_categories`) or "files"
    #: (COLUMN=FILE per column: a table read from FILE, a CSV or a workbook)
    form: str = "value"
    #: the words each COLUMN=VALUE of a "pairs" flag takes
    values: tuple[str, ...] = ()
    #: ``tclose sweep`` takes a list of values, one axis of its grid: an example of one
    grid: str = ""
    #: the flag must be given
    required: bool = False
    #: flags of the same name here exclude each other (t and ε)
    one_of: str = ""
    #: the field is given with another field's flag (its name)
    via: str = ""
    #: why the field has no flag (project files and the app only)
    no_flag: str = ""

    def option(self, name: str) -> str:
        """The flag of field ``name`` ("" when it has none of its own)."""
        if not self.group:
            return ""
        return self.flag or "--" + name.replace("_", "-")


@dataclass(frozen=True)
class Field:
    """A field as a widget needs it: its :class:`FieldInfo` and its declared range."""

    name: str
    info: FieldInfo
    constraint: Constraint
    #: the numeric range, from the constraint (None: unbounded on that side)
    low: float | None = None
    high: float | None = None
    #: whether ``low`` and ``high`` themselves are allowed
    closed: tuple[bool, bool] = (True, True)
    whole: bool = False
    #: None is a value of the field ("auto" or "none")
    optional: bool = False
    #: None means "the engine chooses" (shown as "automatic")
    auto: bool = False

    def allows(self, value: Any) -> bool:
        """Whether ``value`` passes the field's own constraint (not the rules between fields)."""
        try:
            self.constraint.check(self.name, value)
        except InputError:
            return False
        return True


def _field(name: str, info: FieldInfo, constraint: Constraint) -> Field:
    inner, optional, auto = constraint, False, False
    if isinstance(inner, (Optional, Auto)):
        optional, auto = True, isinstance(inner, Auto)
        inner = inner.inner
    if isinstance(inner, Number):
        return Field(
            name, info, constraint, inner.low, inner.high, inner.closed, inner.whole, optional, auto
        )
    return Field(name, info, constraint, optional=optional, auto=auto)


# -- the parameters ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ReleaseParams:
    """Everything that decides what is released (validated on construction; immutable).

    Exactly one of ``t`` and ``epsilon`` is given when there are confidential columns (without
    one, the release is k-anonymous only and a t or ε is not used).  With the bucket mechanism
    an ``epsilon`` means t = exp(ε/2) (KBS 2015, Proposition 3); with a noise mechanism it is
    the ε of the noise (Construction B).  Whether the columns suit the data (named columns
    exist, at least one is tagged, a noise mechanism has a confidential column) is the plan's
    to say (:func:`engine.release.plan.plan`).  Change a field with :meth:`replace`, which
    validates again.
    """

    qi: tuple[str, ...] = ()
    confidential: tuple[str, ...] = ()
    identifiers: tuple[str, ...] = ()
    #: ``other`` columns released unchanged (only these; every unnamed column is dropped)
    keep: tuple[str, ...] = ()
    #: released columns (quasi-identifiers, kept ones) that the identifier rule
    #: (:mod:`engine.identifiers`) takes for identifiers and that are released all the same,
    #: because the user says they are not; the run's review record names them
    allow_identifier: tuple[str, ...] = ()
    #: the household id of every person (any type): every class then holds records of at
    #: least k households, household-level QIs are released alike for all members, and the
    #: id is released re-coded (``household_output``)
    household: str | None = None
    #: the sampling weight of every record (numeric, > 0): used for the risk estimates and
    #: the weighted bucket means, released as ``weight_output`` says
    weight: str | None = None
    #: QIs declared household-level (released alike for every member of a household) on top
    #: of those found constant within every household
    household_level: tuple[str, ...] = ()
    #: the household id in the release: "recode" (a fresh random numbering per release, so
    #: that members can be grouped and no id links back) or "none" (left out)
    household_output: HouseholdOutput = "recode"
    #: the weight in the release: "class" (every record carries its class's mean weight, so
    #: the weight never splits a class and each class's sum of weights is kept), "keep"
    #: (unchanged: a key like any QI, since weights reveal the sampling stratum) or "none"
    #: (left out)
    weight_output: WeightOutput = "class"
    #: type overrides; columns not named here have their type inferred
    types: Mapping[str, ColumnType] = field(default_factory=dict)
    #: category order of ordinal columns (lowest first); inferred when absent
    orders: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: missing-value codes for every column (compared as text and, where numeric, as numbers)
    missing: tuple[str, ...] = ()
    #: missing-value codes for single columns, added to ``missing``
    column_missing: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: records with a missing confidential value: "bucket" releases them in a bucket of their
    #: own (released empty), which every class must then hold; "drop" leaves them out of the
    #: release (the plan, the summary and the report state how many)
    missing_confidential: MissingConfidential = "bucket"
    #: smallest class size
    k: int
    t: float | None = None
    epsilon: float | None = None
    mechanism: Mechanism = "buckets"
    #: number of confidential buckets b; None ("auto") = searched with the class size for the
    #: least combined loss (:func:`engine.release.plan.plan`, ``utility_weight``)
    n_buckets: int | None = None
    #: how the search of b weighs the confidential loss against the QI loss: it minimises
    #: w · confidential SSE/SST + (1 − w) · QI SSE/SST (0 = only the QIs count, 1 = only the
    #: confidential values; 0.5: both alike, which gave the analyses the least error)
    utility_weight: float = 0.5
    #: several confidential columns form one joint bucket (KBS 2015 §4); False = per column
    joint: bool = True
    #: public bounds (lo, hi) of numeric confidential columns, known without the data: the
    #: noise mechanism clamps to them; the buckets mechanism ends its outer labels at them
    bounds: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    #: noise mechanism: the share of each column's ε spent on estimating the bounds of a
    #: numeric confidential column that has no public bounds (DP quantiles); None = every
    #: such column needs public bounds
    private_bounds: float | None = None
    #: public categories of nominal (or ordinal, lowest first) confidential columns, known
    #: without the data: the noise mechanism's randomized response draws from them, and a
    #: value outside them is released as one of them drawn at random; the categories seen in
    #: the data are never used (one person's rare category would show in the release)
    categories: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: noise mechanism: aggregate confidential values in insensitive groups of k first
    insensitive: bool = False
    #: noise mechanism: redraw until the release is also t-close on the buckets
    resample_until_t: float | None = None
    #: noise mechanism, numeric columns: "log" adds the noise to log(1 + value) and releases
    #: the result back on the column's scale, so that the error grows with the value (for
    #: positive, skewed columns such as incomes); the bounds must then be ≥ 0
    transform: Transform = "none"
    qi_output: QiOutput = "centroid"
    #: a bucket's released value: the mean of the whole bucket ("mean", which keeps totals;
    #: the median where one or two records dominate the bucket's sum), its "median", or its
    #: "label" (the interval or category set); "representative" is read as "median"
    confidential_output: ConfidentialOutput = "mean"
    #: None = fresh OS entropy (not reproducible); a number makes the run reproducible
    seed: int | None = None
    #: who may obtain the release: "public" (a public-use file), "scientific" (registered
    #: researchers), "licensed" (named users under an agreement) or "enclave" (used only in
    #: a controlled environment); None = not stated; the plan compares k with the
    #: guidance for a stated type
    release_type: ReleaseType | None = None
    #: the intruder scenario the release is protected against, in the agency's words (what
    #: an intruder is assumed to know and do); published with the release
    scenario: str = ""
    #: per nominal quasi-identifier, its classification from the finest level to the
    #: coarsest (a table, header first: engine.recoding.Hierarchy); classes are formed with
    #: its distance and release their members' lowest common level
    hierarchies: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    #: per numeric quasi-identifier, public cut points: its values are released as bands
    bands: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    #: per numeric column, a public top code: larger values are replaced by it
    top_code: Mapping[str, float] = field(default_factory=dict)
    #: per numeric column, a public bottom code: smaller values are replaced by it
    bottom_code: Mapping[str, float] = field(default_factory=dict)

    #: one declared constraint per field (checked in declaration order)
    CONSTRAINTS: ClassVar[dict[str, Constraint]] = {
        "qi": Texts(names=True, what=N_("a list of column names")),
        "confidential": Texts(names=True, what=N_("a list of column names")),
        "identifiers": Texts(names=True, what=N_("a list of column names")),
        "keep": Texts(names=True, what=N_("a list of column names")),
        "allow_identifier": Texts(names=True, what=N_("a list of column names")),
        "household": Optional(Name()),
        "weight": Optional(Name()),
        "household_level": Texts(names=True, what=N_("a list of column names")),
        "household_output": Options(values=("recode", "none")),
        "weight_output": Options(values=("class", "keep", "none")),
        "types": PerColumn(_column_type, bad=(Invalid("text"), Invalid(1, said=False))),
        "orders": PerColumn(_category_order, bad=(Invalid("a,b"), Invalid(["a", 1]))),
        "missing": Texts(what=N_("a list of missing-value codes")),
        "column_missing": PerColumn(_codes, bad=(Invalid("-9"), Invalid([-9]))),
        "missing_confidential": Options(values=("bucket", "drop")),
        "k": Number(low=1, whole=True),
        "t": Optional(Number(low=1)),
        "epsilon": Optional(Number(low=0, high=MAX_EPSILON, closed=(False, True))),
        "mechanism": Options(values=tuple(MECHANISMS)),
        "n_buckets": Auto(Number(low=2, whole=True)),
        "utility_weight": Number(low=0, high=1),
        "joint": Flag(),
        "bounds": PerColumn(
            _bounds, bad=(Invalid([5, 1]), Invalid([0, 1e200]), Invalid("0:1", said=False))
        ),
        "private_bounds": Optional(Number(low=0, high=1, closed=(False, False))),
        "categories": PerColumn(
            _categories,
            bad=(
                Invalid(["a"]),
                Invalid(["a", "a"]),
                Invalid(["a", " "]),
                Invalid('"a|b'),
                Invalid(["a", 1], said=False),
            ),
        ),
        "insensitive": Flag(),
        "resample_until_t": Optional(Number(low=1)),
        "transform": Options(values=("none", "log")),
        "qi_output": Options(values=("centroid", "range", "common")),
        "confidential_output": Choice(
            values=("mean", "median", "label"), aliases={"representative": "median"}
        ),
        "seed": Optional(Number(low=0, high=MAX_SEED, whole=True)),
        "release_type": Optional(Options(values=("public", "scientific", "licensed", "enclave"))),
        "scenario": Text(longest=MAX_SCENARIO),
        "hierarchies": PerColumn(
            _hierarchy,
            bad=(Invalid([["age", "band"], ["1", "x"], ["1", "y"]]), Invalid("a", said=False)),
        ),
        "bands": PerColumn(_cuts, bad=(Invalid([3, 1]), Invalid("x"), Invalid([], said=False))),
        "top_code": PerColumn(_code_value, bad=(Invalid("x"), Invalid(1e200))),
        "bottom_code": PerColumn(_code_value, bad=(Invalid("x"), Invalid(1e200))),
    }

    def __post_init__(self) -> None:
        for name, constraint in self.CONSTRAINTS.items():
            object.__setattr__(self, name, constraint.check(name, getattr(self, name)))
        self._check_dependencies()

    def _check_dependencies(self) -> None:
        named = [*self.qi, *self.confidential, *self.identifiers, *self.keep]
        named += [c for c in (self.household, self.weight) if c is not None]
        dupes = _repeated(named)
        if dupes:
            raise InputError(
                _("A column can have only one role: {columns}.").format(columns=listing(dupes))
            )
        self._check_survey()
        stray = [c for c in self.allow_identifier if c not in (*self.qi, *self.keep)]
        if stray:
            raise InputError(
                _(
                    "allow_identifier names released columns (quasi-identifiers or kept "
                    "ones); {columns} is not one."
                ).format(columns=listing(stray))
            )
        if self.t is not None and self.epsilon is not None:
            raise InputError(_("Give t or ε (epsilon), not both."))
        if self.confidential and self.t is None and self.epsilon is None:
            raise InputError(_("Give the privacy level as t or as ε (epsilon)."))
        MECHANISMS[self.mechanism].validate(self)
        if self.transform == "log":
            negative = sorted(c for c, (lo, _hi) in self.bounds.items() if lo < 0)
            if negative:
                raise InputError(
                    _(
                        "transform 'log' adds the noise to log(1 + value): the bounds of "
                        "{columns} must be ≥ 0."
                    ).format(columns=", ".join(map(repr, negative)))
                )
        self._check_recoding()
        stray = sorted(set(self.bounds) - set(self.confidential))
        if stray:
            raise InputError(
                _("bounds are for confidential columns; {columns} is not one.").format(
                    columns=", ".join(map(repr, stray))
                )
            )
        stray = sorted(set(self.categories) - set(self.confidential))
        if stray:
            raise InputError(
                _("categories are for confidential columns; {columns} is not one.").format(
                    columns=", ".join(map(repr, stray))
                )
            )
        both = sorted(set(self.bounds) & set(self.categories))
        if both:
            raise InputError(
                _("{columns}: a column has bounds (numbers) or categories, not both.").format(
                    columns=listing(both)
                )
            )

    def _check_recoding(self) -> None:
        """A column is banded or has a hierarchy, not both; a bottom code lies below the
        top code and the bands of its column."""
        both = sorted(set(self.hierarchies) & set(self.bands))
        if both:
            raise InputError(
                _("{columns}: a column has bands or a hierarchy, not both.").format(
                    columns=listing(both)
                )
            )
        for column, low in self.bottom_code.items():
            high = self.top_code.get(column)
            if high is not None and not low < high:
                raise InputError(
                    _("{column}: the bottom code must be below the top code.").format(column=column)
                )

    def _check_survey(self) -> None:
        """The household and weight options need their column; household-level are QIs."""
        if self.household is None:
            used = [
                name
                for name, value in (
                    ("household_level", bool(self.household_level)),
                    ("household_output", self.household_output != "recode"),
                )
                if value
            ]
            if used:
                raise InputError(
                    _("{options}: only with a household column (household).").format(
                        options=", ".join(used)
                    )
                )
        # "keep" without a weight is what project files saved before "class" was the default
        if self.weight is None and self.weight_output == "none":
            raise InputError(_("weight_output needs a weight column (weight)."))
        stray = [c for c in self.household_level if c not in self.qi]
        if stray:
            raise InputError(
                _("household_level names quasi-identifiers; {columns} is not one.").format(
                    columns=", ".join(map(repr, stray))
                )
            )

    def __hash__(self) -> int:
        # the mappings make the generated hash fail; equal parameters have equal dicts
        return hash(json.dumps(self.to_dict(), sort_keys=True))

    # -- derived values ------------------------------------------------------------------

    @property
    def bucket_t(self) -> float | None:
        """The t that the bucket construction must meet (t, or exp(ε/2) from ε)."""
        if self.t is not None:
            return float(self.t)
        if self.epsilon is not None:
            return math.exp(self.epsilon / 2.0)
        return None

    @property
    def noise(self) -> bool:
        """True for Construction B (noise on the confidential values)."""
        return MECHANISMS[self.mechanism].noise

    def released_weight(self) -> WeightOutput | None:
        """How the release carries the weight: "class" (its class's mean), "keep"
        (unchanged), or None (no weight column, or left out).

        The one place that decides whether the weight is released: the survey's columns, the
        cluster, the verifier's keys, the run summary and the report all ask here.
        """
        if self.weight is None or self.weight_output == "none":
            return None
        return self.weight_output

    def released_household(self) -> bool:
        """Whether the release carries a (re-coded) household id column."""
        return self.household is not None and self.household_output == "recode"

    # -- changing and serialising ------------------------------------------------------

    def replace(self, **changes: Any) -> ReleaseParams:
        """A copy with ``changes`` applied, validated again."""
        unknown = sorted(set(changes) - set(self.CONSTRAINTS))
        if unknown:
            raise InputError(_unknown_message(unknown))
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types, one key per field (the project file's and summary's form)."""
        out: dict[str, Any] = {}
        for name in self.CONSTRAINTS:
            value = getattr(self, name)
            if name == "types":
                value = {c: str(t) for c, t in value.items()}
            elif name == "bounds":
                value = {c: [lo, hi] for c, (lo, hi) in value.items()}
            elif name == "hierarchies":
                value = {c: [list(r) for r in rows] for c, rows in value.items()}
            elif name in ("top_code", "bottom_code"):
                value = dict(value)
            elif isinstance(value, Mapping):
                value = {c: list(v) for c, v in value.items()}
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ReleaseParams:
        """The inverse of :meth:`to_dict`; unknown keys are refused, absent ones default."""
        if not isinstance(data, Mapping):
            raise InputError(_("The parameters must be an object of name: value."))
        unknown = sorted(set(data) - set(cls.CONSTRAINTS))
        if unknown:
            raise InputError(_unknown_message(unknown))
        if "k" not in data:
            raise InputError(_("The parameters lack k (the smallest class size)."))
        return cls(**dict(data))

    @classmethod
    def parse(cls, name: str, text: str) -> Any:
        """The value of field ``name`` that a command-line text stands for (same message)."""
        return cls.CONSTRAINTS[name].parse(name, text)

    # -- what people read about each field ---------------------------------------------------

    #: one :class:`FieldInfo` per field, in the order of :attr:`CONSTRAINTS`
    FIELDS: ClassVar[dict[str, FieldInfo]] = {
        "qi": FieldInfo(
            QT_TRANSLATE_NOOP("params", "quasi-identifiers"),
            QT_TRANSLATE_NOOP(
                "params",
                "Columns an intruder may know and link to a person (age, sex, region); "
                "released only after grouping the records into classes of at least k.",
            ),
        ),
        "confidential": FieldInfo(
            QT_TRANSLATE_NOOP("params", "confidential columns"),
            QT_TRANSLATE_NOOP(
                "params",
                "The sensitive values to protect (income, diagnosis); released only in "
                "protected form.",
            ),
        ),
        "identifiers": FieldInfo(
            QT_TRANSLATE_NOOP("params", "identifiers"),
            QT_TRANSLATE_NOOP(
                "params", "Columns that name a person directly (name, ID number); never released."
            ),
        ),
        "keep": FieldInfo(
            QT_TRANSLATE_NOOP("params", "columns released unchanged"),
            QT_TRANSLATE_NOOP(
                "params",
                "Columns released exactly as they are; a column named nowhere is left out.",
            ),
        ),
        "allow_identifier": FieldInfo(
            QT_TRANSLATE_NOOP("params", "columns released although they look like identifiers"),
            QT_TRANSLATE_NOOP(
                "params",
                "Quasi-identifiers or kept columns that hold nearly one value per record (or "
                "per household) and would be refused as identifiers in disguise; released "
                "all the same because you know they are not identifiers. The review record "
                "names them.",
            ),
        ),
        "household": FieldInfo(
            QT_TRANSLATE_NOOP("params", "household column"),
            QT_TRANSLATE_NOOP(
                "params",
                "The household each person belongs to: every class then holds records of at "
                "least k households, and household-level values are released alike for all "
                "members.",
            ),
        ),
        "weight": FieldInfo(
            QT_TRANSLATE_NOOP("params", "sampling weight column"),
            QT_TRANSLATE_NOOP(
                "params",
                "How many people of the population each record stands for (a number above "
                "0): used for the risk estimates and the weighted bucket means.",
            ),
        ),
        "household_level": FieldInfo(
            QT_TRANSLATE_NOOP("params", "also household-level"),
            QT_TRANSLATE_NOOP(
                "params",
                "Quasi-identifiers to release alike for every member of a household, besides "
                "those found constant within every household.",
            ),
        ),
        "household_output": FieldInfo(
            QT_TRANSLATE_NOOP("params", "household id released as"),
            QT_TRANSLATE_NOOP(
                "params",
                "'recode': a fresh random numbering in every release, so members can be "
                "grouped but no id links back; 'none': left out.",
            ),
        ),
        "weight_output": FieldInfo(
            QT_TRANSLATE_NOOP("params", "weight released as"),
            QT_TRANSLATE_NOOP(
                "params",
                "'class': every record carries its class's mean weight (the weight never "
                "splits a class; each class's sum of weights is kept); 'keep': unchanged "
                "(weights can reveal the sampling stratum: the run reports k and t with the "
                "weight as a key); 'none': left out.",
            ),
        ),
        "types": FieldInfo(
            QT_TRANSLATE_NOOP("params", "column types"),
            QT_TRANSLATE_NOOP(
                "params", "The type of a column where it is not the one inferred from its values."
            ),
        ),
        "orders": FieldInfo(
            QT_TRANSLATE_NOOP("params", "category orders"),
            QT_TRANSLATE_NOOP(
                "params", "The categories of an ordinal column from the lowest to the highest."
            ),
        ),
        "missing": FieldInfo(
            QT_TRANSLATE_NOOP("params", "missing-value codes"),
            QT_TRANSLATE_NOOP(
                "params", "Values that stand for a missing answer in every column (-9, N/A)."
            ),
        ),
        "column_missing": FieldInfo(
            QT_TRANSLATE_NOOP("params", "missing-value codes of single columns"),
            QT_TRANSLATE_NOOP(
                "params", "Values that stand for a missing answer in one column only."
            ),
        ),
        "missing_confidential": FieldInfo(
            QT_TRANSLATE_NOOP("params", "records without a confidential value"),
            QT_TRANSLATE_NOOP(
                "params",
                "'bucket' releases them in a bucket of their own (released empty); 'drop' "
                "leaves them out of the release.",
            ),
        ),
        "k": FieldInfo(
            QT_TRANSLATE_NOOP("params", "smallest group size k"),
            QT_TRANSLATE_NOOP(
                "params",
                "k: every released combination of quasi-identifier values is shared by at "
                "least k records, so no one can be singled out by them.",
            ),
            unit=QT_TRANSLATE_NOOP("params", "records"),
            symbol="k",
        ),
        "t": FieldInfo(
            QT_TRANSLATE_NOOP("params", "privacy level t"),
            QT_TRANSLATE_NOOP(
                "params",
                "t ≥ 1: inside every group, each confidential bucket's share may be at most "
                "t times (and at least 1/t of) its share in the whole file. Smaller t = more "
                "privacy.",
            ),
            symbol="t",
            decimals=3,
            step=0.1,
        ),
        "epsilon": FieldInfo(
            QT_TRANSLATE_NOOP("params", "privacy level ε"),
            QT_TRANSLATE_NOOP(
                "params",
                "ε > 0: the privacy budget of differential privacy; smaller ε = more "
                "privacy. With buckets, t = exp(ε/2).",
            ),
            symbol="ε",
            decimals=3,
            step=0.1,
        ),
        "mechanism": FieldInfo(
            QT_TRANSLATE_NOOP("params", "mechanism"),
            QT_TRANSLATE_NOOP(
                "params",
                "'buckets': t-closeness by grouping the confidential values; 'laplace': "
                "ε-differential privacy by random noise.",
            ),
        ),
        "n_buckets": FieldInfo(
            QT_TRANSLATE_NOOP("params", "number of buckets"),
            QT_TRANSLATE_NOOP(
                "params",
                "How many buckets the confidential values are grouped into; 'automatic' lets "
                "the engine choose for t and k. More buckets keep more detail but need larger "
                "groups.",
            ),
            symbol="b",
        ),
        "utility_weight": FieldInfo(
            QT_TRANSLATE_NOOP("params", "weight of the confidential loss"),
            QT_TRANSLATE_NOOP(
                "params",
                "How the search of the number of buckets weighs the confidential loss "
                "against the quasi-identifiers' loss (0: only the quasi-identifiers count, "
                "1: only the confidential values).",
            ),
            symbol="w",
            decimals=2,
            step=0.05,
        ),
        "joint": FieldInfo(
            QT_TRANSLATE_NOOP("params", "confidential columns bucketed together"),
            QT_TRANSLATE_NOOP(
                "params",
                "Several confidential columns form one joint bucket (the stronger guarantee); "
                "off: each column is bucketed on its own.",
            ),
        ),
        "bounds": FieldInfo(
            QT_TRANSLATE_NOOP("params", "public bounds"),
            QT_TRANSLATE_NOOP(
                "params",
                "Public lower and upper limits of each numeric confidential column "
                "(COLUMN=LOW:HIGH), known without looking at the data (e.g. from the "
                "questionnaire). Noise is calibrated to them and released values are kept "
                "within them; the outer buckets end at them. The data's own minimum and "
                "maximum are never used.",
            ),
        ),
        "private_bounds": FieldInfo(
            QT_TRANSLATE_NOOP("params", "share of ε for private bounds"),
            QT_TRANSLATE_NOOP(
                "params",
                "For a numeric confidential column without public bounds: estimate its limits "
                "from the data with differential privacy, spending this share of its ε (the "
                "rest goes into the noise)",
            ),
            unit="%",
            decimals=0,
            step=1.0,
            scale=100.0,
        ),
        "categories": FieldInfo(
            QT_TRANSLATE_NOOP("params", "public categories"),
            QT_TRANSLATE_NOOP(
                "params",
                "Every category a nominal confidential column can take (COLUMN=CAT|CAT|…), "
                "known without looking at the data (e.g. the answers of the questionnaire). "
                "The noise mechanism's randomized response draws from them, and a value "
                "outside them is released as one of them at random. The categories seen in "
                "the data are never used: one person's rare category would show.",
            ),
        ),
        "insensitive": FieldInfo(
            QT_TRANSLATE_NOOP("params", "average in groups of k before adding noise"),
            QT_TRANSLATE_NOOP(
                "params",
                "Insensitive microaggregation: noise of scale Δ/(k·ε) instead of Δ/ε for the "
                "same ε",
            ),
        ),
        "resample_until_t": FieldInfo(
            QT_TRANSLATE_NOOP("params", "redraw the noise until t-close at"),
            QT_TRANSLATE_NOOP(
                "params",
                "Draw the noise again until the release is also t-close on the buckets at this t.",
            ),
            symbol="t",
            decimals=3,
            step=0.1,
        ),
        "transform": FieldInfo(
            QT_TRANSLATE_NOOP("params", "noise in proportion to each value"),
            QT_TRANSLATE_NOOP(
                "params",
                "The noise is added to log(1 + value) and the result taken back, so small "
                "values get small errors and large values large ones. For positive, skewed "
                "columns; the public bounds must then be 0 or more. The same ε either way.",
            ),
        ),
        "qi_output": FieldInfo(
            QT_TRANSLATE_NOOP("params", "quasi-identifiers released as"),
            QT_TRANSLATE_NOOP(
                "params",
                "'centroid': one typical value per group; 'range': the range the group spans.",
            ),
        ),
        "confidential_output": FieldInfo(
            QT_TRANSLATE_NOOP("params", "confidential values released as"),
            QT_TRANSLATE_NOOP(
                "params", "Each bucket's mean, its median, or its label (the interval or set)."
            ),
        ),
        "seed": FieldInfo(
            QT_TRANSLATE_NOOP("params", "random seed"),
            QT_TRANSLATE_NOOP(
                "params",
                "A whole number makes the run reproducible for an audit; the release is then "
                "only as private as the seed is secret",
            ),
        ),
    }

    FIELDS["release_type"] = FieldInfo(
        QT_TRANSLATE_NOOP("params", "release type"),
        QT_TRANSLATE_NOOP(
            "params",
            "Who may obtain the file: 'public' (anyone), 'scientific' (registered "
            "researchers), 'licensed' (named users under an agreement) or 'enclave' (only "
            "inside a controlled environment). The plan says when k is below what the "
            "guidance asks for this type.",
        ),
    )
    FIELDS["scenario"] = FieldInfo(
        QT_TRANSLATE_NOOP("params", "intruder scenario"),
        QT_TRANSLATE_NOOP(
            "params",
            "What an intruder is assumed to know and do (e.g. 'a neighbour who knows age, "
            "sex and commune'), in a sentence or two; published with the release.",
        ),
    )

    FIELDS["hierarchies"] = FieldInfo(
        QT_TRANSLATE_NOOP("params", "hierarchies"),
        QT_TRANSLATE_NOOP(
            "params",
            "A nominal quasi-identifier's classification, from the finest level to the "
            "coarsest (commune, district, province): groups are formed with it, and each "
            "releases the finest level all its members share, never a category one of them "
            "does not hold.",
        ),
    )
    FIELDS["bands"] = FieldInfo(
        QT_TRANSLATE_NOOP("params", "bands"),
        QT_TRANSLATE_NOOP(
            "params",
            "Public cut points of a numeric quasi-identifier (COLUMN=15:25:45:65): its values "
            "are replaced by their band before the records are grouped.",
        ),
    )
    FIELDS["top_code"] = FieldInfo(
        QT_TRANSLATE_NOOP("params", "top codes"),
        QT_TRANSLATE_NOOP(
            "params",
            "A public top code of a numeric column (COLUMN=VALUE): larger values are "
            "replaced by it before the records are grouped.",
        ),
    )
    FIELDS["bottom_code"] = FieldInfo(
        QT_TRANSLATE_NOOP("params", "bottom codes"),
        QT_TRANSLATE_NOOP(
            "params",
            "A public bottom code of a numeric column (COLUMN=VALUE): smaller values are "
            "replaced by it before the records are grouped.",
        ),
    )
    #: how each field is given on the command line, in the order of :attr:`CONSTRAINTS`
    FLAGS: ClassVar[dict[str, FlagInfo]] = {
        "qi": FlagInfo("columns", metavar="COL[,COL…]", form="columns", required=True),
        "confidential": FlagInfo("columns", metavar="COL[,COL…]", form="columns"),
        "identifiers": FlagInfo("columns", flag="--identifier", metavar="COL,…", form="columns"),
        "keep": FlagInfo("columns", metavar="COL,…", form="columns"),
        "allow_identifier": FlagInfo("columns", metavar="COL,…", form="columns"),
        "household": FlagInfo("survey", metavar="COL"),
        "weight": FlagInfo("survey", metavar="COL"),
        "household_level": FlagInfo("survey", metavar="COL,…", form="columns"),
        "household_output": FlagInfo("survey"),
        "weight_output": FlagInfo("survey"),
        "types": FlagInfo(
            "columns",
            flag="--type",
            metavar="COLUMN=TYPE",
            form="pairs",
            values=tuple(t.value for t in ColumnType),
        ),
        "orders": FlagInfo(
            no_flag="a list of categories per column: project files and the app only"
        ),
        "missing": FlagInfo("columns", metavar="CODE,…", form="codes"),
        "column_missing": FlagInfo(
            no_flag="codes per column: project files and the app only (--missing: every column)"
        ),
        "missing_confidential": FlagInfo("columns"),
        "k": FlagInfo("level", metavar="K", grid="5,10", required=True),
        "t": FlagInfo("level", metavar="T", grid="1.5,2,3", one_of="level"),
        "epsilon": FlagInfo("level", metavar="E", grid="0.1,1", one_of="level"),
        "mechanism": FlagInfo("noise"),
        "n_buckets": FlagInfo("level", flag="--buckets", metavar="B", grid="3,6,auto"),
        "utility_weight": FlagInfo("level", metavar="W"),
        "joint": FlagInfo("level", flag="--per-column", form="off"),
        "bounds": FlagInfo("noise", metavar="COL=LO:HI|private[=SHARE]", form="bounds"),
        "private_bounds": FlagInfo(via="bounds"),
        "categories": FlagInfo("noise", metavar="COL=CAT|CAT|…", form="categories"),
        "insensitive": FlagInfo("noise", form="switch"),
        "resample_until_t": FlagInfo("noise", metavar="T"),
        "transform": FlagInfo("noise"),
        "qi_output": FlagInfo("form"),
        "confidential_output": FlagInfo("form"),
        "seed": FlagInfo("form", metavar="N"),
        "release_type": FlagInfo("release"),
        "scenario": FlagInfo("release", metavar="TEXT"),
        "hierarchies": FlagInfo("recoding", flag="--hierarchy", metavar="COL=FILE", form="files"),
        "bands": FlagInfo("recoding", flag="--bands", metavar="COL=CUT:CUT:…", form="pairs"),
        "top_code": FlagInfo("recoding", metavar="COL=VALUE", form="pairs"),
        "bottom_code": FlagInfo("recoding", metavar="COL=VALUE", form="pairs"),
    }

    @classmethod
    def describe(cls, name: str) -> Field:
        """Field ``name`` with what people read about it and its declared range."""
        if name not in cls.CONSTRAINTS:
            raise InputError(_unknown_message([name]))
        info = cls.FIELDS.get(name) or FieldInfo(name.replace("_", " "))
        return _field(name, info, cls.CONSTRAINTS[name])


def _unknown_message(unknown: list[str]) -> str:
    known = ", ".join(ReleaseParams.CONSTRAINTS)
    return _("Unknown parameter(s) {unknown}; the parameters are: {known}.").format(
        unknown=", ".join(map(repr, unknown)), known=known
    )


__all__ = [
    "CATEGORY_SEPARATOR",
    "FLAG_GROUPS",
    "MAX_EPSILON",
    "MAX_MAGNITUDE",
    "MIN_NOISE_EPSILON",
    "ConfidentialOutput",
    "Field",
    "FieldInfo",
    "FlagInfo",
    "HouseholdOutput",
    "Invalid",
    "Mechanism",
    "MissingConfidential",
    "QiOutput",
    "ReleaseParams",
    "ReleaseType",
    "Transform",
    "WeightOutput",
    "join_categories",
    "split_categories",
]
