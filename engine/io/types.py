"""Column types and missing values.

:func:`infer_types` guesses numeric / ordinal / nominal / date for every column, with a
confidence (0..1) and a sentence the GUI shows next to the guess; the user has the last word.
The rules, in order:

* **date**: a datetime column, or texts that are all dates (ISO, or day/month/year that is
  unambiguous); mostly dates with a few texts gives a date guess with lower confidence.
* **codes** (:func:`code_reason`): whole numbers repeated many times (each value on
  :data:`CODE_REPEATS` records or more on average) in a column named like a code (commune,
  region, code, ``id_*`` …) are codes of categories, guessed nominal with the reason; their
  mean (commune "117") would mean nothing.  Integer codes with value labels are codes too
  (``labelled=True``).
* **numeric**: numbers.  Whole numbers with very few different values (1..5) might be codes of
  categories, so the confidence drops and the note says so.  A frequent value that is the only
  negative one (``-9``, ``-10000``) is suggested as a missing code.
* **mixed**: texts that are mostly numbers (``12, 40, N/A``) are guessed numeric with the
  share of numbers as confidence; the texts are named and suggested as missing codes.  The
  column is never coerced: declaring those codes (:func:`apply_missing`) makes it numeric.
* **ordinal** (a heuristic, deliberately simple): every category belongs to one known ordered
  scale (low/medium/high, never…always, disagree…agree, poor…excellent, S/M/L, …), or every
  category carries a number that orders it (``1st``, ``2nd``; ``20-29``, ``30-39``, ``60+``).
  Education levels (no schooling … preschool … grade 9 … high school … bachelor's … doctorate,
  in the spellings of census files) are one such scale.  ``TypeGuess.order`` proposes the
  order.
* **nominal**: any other text; a column whose values are all different is flagged as a
  possible identifier.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.i18n import _
from engine.io.columns import LEADING_ZERO, dates_from_text, in_date_range, is_number
from engine.roles import ColumnType
from engine.text import number, percent

#: ordered scales; each position lists words meaning the same level (compared casefolded)
ORDERED_SCALES: tuple[tuple[tuple[str, ...], ...], ...] = (
    (
        ("very low", "lowest"),
        ("low",),
        ("medium", "moderate", "average", "mid", "middle", "intermediate"),
        ("high",),
        ("very high", "highest"),
    ),
    (
        ("never",),
        ("rarely", "seldom"),
        ("sometimes", "occasionally"),
        ("often", "frequently", "usually"),
        ("always",),
    ),
    (
        ("strongly disagree",),
        ("disagree", "somewhat disagree"),
        ("neither agree nor disagree", "neutral", "neither"),
        ("agree", "somewhat agree"),
        ("strongly agree",),
    ),
    (("very poor",), ("poor",), ("fair",), ("good",), ("very good",), ("excellent",)),
    (
        ("very dissatisfied",),
        ("dissatisfied",),
        ("neutral",),
        ("satisfied",),
        ("very satisfied",),
    ),
    (("very unlikely",), ("unlikely",), ("neutral",), ("likely",), ("very likely",)),
    (("none",), ("mild", "light", "slight"), ("moderate",), ("severe",), ("very severe",)),
    (
        ("xxs",),
        ("xs", "extra small"),
        ("s", "small"),
        ("m", "medium"),
        ("l", "large"),
        ("xl", "extra large"),
        ("xxl",),
    ),
    (("primary",), ("lower secondary",), ("secondary", "upper secondary"), ("tertiary",)),
    (  # the same levels and agreement in Spanish and French
        ("muy bajo", "muy baja", "très faible", "très bas", "très basse"),
        ("bajo", "baja", "faible", "bas", "basse"),
        ("medio", "media", "moyen", "moyenne", "intermedio", "intermedia"),
        ("alto", "alta", "élevé", "élevée", "haut", "haute"),
        ("muy alto", "muy alta", "très élevé", "très élevée", "très haut", "très haute"),
    ),
    (
        ("totalmente en desacuerdo", "muy en desacuerdo", "pas du tout d'accord"),
        ("en desacuerdo", "pas d'accord", "plutôt pas d'accord"),
        ("ni de acuerdo ni en desacuerdo", "neutro", "neutre", "ni d'accord ni pas d'accord"),
        ("de acuerdo", "d'accord", "plutôt d'accord"),
        ("totalmente de acuerdo", "muy de acuerdo", "tout à fait d'accord"),
    ),
    (("child",), ("teen", "teenager", "adolescent"), ("adult",), ("senior", "elderly")),
)
#: education levels, from none to a doctorate: (pattern, rank), the first that matches wins
#: (the spellings of census files: "HS-grad", "Some-college", "Grade 12 (no diploma)",
#: "College dropout (>1 year)", "Associate's degree", "Prof-school" …)
EDUCATION_LEVELS: tuple[tuple[re.Pattern[str], float], ...] = tuple(
    (re.compile(pattern), rank)
    for pattern, rank in (
        (r"\b(doctor|doctorate|doctoral|phd|ph d|doctorado|doctorat)\b", 8.0),
        (r"\bprof(essional)?\b.*\b(degree|school)\b", 7.5),
        (r"\b(master|masters|master's|msc|mba|maestria|maestría|máster)\b", 7.0),
        (r"(?<!under)\bgraduate\b(?! high)", 7.0),
        (r"\b(bachelor|bachelors|bachelor's|undergraduate|licenciatura|licence)\b", 6.0),
        (r"\b(college|university) (graduate|degree)\b", 6.0),
        (r"\b(assoc|associate|associates|associate's|vocational|technical)\b", 5.0),
        (r"\b(some college|college dropout|some university)\b.*(>|more than|or more)", 4.6),
        (r"\b(some college|college dropout|some university|college, no degree)\b", 4.5),
        (r"\bgrade (\d{1,2})\b|\b(\d{1,2})(st|nd|rd|th)\b", -1.0),  # 2 + grade/20
        (r"\bged\b", 4.1),
        (r"\b(high school|hs grad|upper secondary|secondary|bachillerato|lycee|lycée)\b", 4.0),
        (r"\b(lower secondary|middle school|junior high)\b", 3.0),
        (r"\b(primary|elementary|primaria|primaire)\b", 2.3),
        (r"\b(kindergarten|kinder|maternelle)\b", 1.5),
        (r"\b(preschool|pre school|nursery|preescolar)\b", 1.0),
        (r"\b(no schooling|no school|no education|never attended|sin estudios|none)\b", 0.0),
    )
)
#: a number inside a category label (``1st``, ``20-29``, ``60+``, ``Grade 3``)
_NUMBER_IN_LABEL = re.compile(r"(\d+(?:[.,]\d+)?)")
_BELOW = re.compile(r"^\s*(<|≤|under|below|less than|up to)", re.IGNORECASE)
_ABOVE = re.compile(r"(\+|or more|and over|and above|or older)\s*$|^\s*(>|≥|over|above)", re.I)
#: whole-number columns with at most this many values may be codes of categories
_FEW_CODES = 7
#: texts that usually stand for a missing value (compared casefolded)
MISSING_WORDS = frozenset(
    {"n/a", "na", "nan", "none", "null", "missing", ".", "-", "--", "?", "unknown",
     "not applicable", "not available", "dk", "don't know", "refused", "#n/a", "no answer"}
)  # fmt: skip
#: more numbered categories than this are more likely codes or identifiers than levels
_MAX_NUMBERED = 30
#: how many missing-code candidates a guess names
_MAX_SUGGESTED = 10
#: whole numbers whose values repeat this often on average (records per value) may be codes
CODE_REPEATS = 5
#: words (English, Spanish, French) that name a column of codes of categories
CODE_WORDS = frozenset(
    {
        "code", "codes", "cod", "codigo", "código", "id", "commune", "comuna", "municipality",
        "municipio", "municipalite", "municipalité", "region", "región", "région", "province",
        "provincia", "district", "distrito", "county", "comarca", "canton", "state", "estado",
        "department", "departamento", "departement", "département", "zone", "zona",
        "sector", "industry", "occupation", "ocupacion", "ocupación", "profession", "nace",
        "isco", "naics", "ciuo", "cno", "nuts", "zip", "postcode", "postal", "geo", "country",
        "pais", "país", "pays", "nationality", "nacionalidad", "nationalite", "nationalité",
        "ethnicity", "race", "religion", "marital", "status", "type", "tipo", "category",
        "categoria", "categoría", "categorie", "catégorie", "class", "clase", "classe",
    }
)  # fmt: skip


@dataclass(frozen=True)
class TypeGuess:
    """A guessed column type with how sure it is and why, in words the GUI can show."""

    type: ColumnType
    #: 0..1, how sure the guess is (share of values that fit the type)
    confidence: float
    #: why, in words the GUI can show
    note: str = ""
    #: texts (or sentinel numbers) that look like missing-value codes in this column
    suggested_missing: tuple[str, ...] = ()
    #: for ordinal guesses: the categories from lowest to highest
    order: tuple[str, ...] | None = None


def apply_missing(
    df: pd.DataFrame,
    codes: Iterable[object] = (),
    column_codes: Mapping[str, Iterable[object]] | None = None,
) -> pd.DataFrame:
    """A copy of ``df`` where declared missing codes are NA.

    A code matches a cell when their texts are equal (surrounding blanks ignored), or when
    both are numbers and equal (so ``-10000`` matches the integer -10000, the float -10000.0
    and the text "-10000.0").  A text column that holds only numbers once its codes are gone
    becomes a numeric column.
    """
    # a shallow copy: every column that changes is replaced below, never written into, so
    # (copy-on-write) ``df`` stays as it is and the unchanged columns are not held twice
    out = df.copy(deep=False)
    column_codes = column_codes or {}
    unknown = [c for c in column_codes if c not in out.columns]
    if unknown:
        raise InputError(
            _(
                "Missing codes were given for column(s) {repr}, which the table does not have."
            ).format(repr=", ".join(map(repr, unknown)))
        )
    for col in out.columns:
        all_codes = [str(c).strip() for c in (*codes, *column_codes.get(col, ()))]
        if not all_codes:
            continue
        s = out[col]
        if pd.api.types.is_datetime64_any_dtype(s):
            continue
        code_numbers = pd.to_numeric(pd.Series(all_codes), errors="coerce").dropna().to_numpy()
        if pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s):
            values = s.to_numpy(dtype=float, na_value=np.nan)
            mask = np.isin(values, code_numbers) if len(code_numbers) else np.zeros(len(s), bool)
            if mask.any():
                out[col] = s.mask(mask)
            continue
        # text: decide once per distinct value, then spread to the cells (fast on big files)
        codes_of_cells, uniques = pd.factorize(s, use_na_sentinel=True)
        text = pd.Series(uniques, dtype="object").map(str).str.strip()
        hit = text.isin(all_codes).to_numpy(bool, copy=True)
        numbers = pd.to_numeric(text, errors="coerce").to_numpy(float, na_value=np.nan)
        if len(code_numbers):
            hit |= np.isin(numbers, code_numbers)
        if not hit.any():
            continue
        mask = np.zeros(len(s), bool)
        present = codes_of_cells >= 0
        mask[present] = hit[codes_of_cells[present]]
        kept = ~hit
        leading = text[kept].str.match(LEADING_ZERO.pattern).any()
        if kept.any() and not np.isnan(numbers[kept]).any() and not leading:
            # only numbers are left once the codes are gone: the column becomes numeric
            values = np.full(len(s), np.nan)
            values[present] = numbers[codes_of_cells[present]]
            values[mask] = np.nan
            out[col] = pd.Series(values, index=s.index)
        else:
            out[col] = s.mask(mask)
    return out


def infer_type(series: pd.Series) -> TypeGuess:
    """Guess the type of one column from its non-missing values."""
    values = series.dropna()
    if values.empty:
        return TypeGuess(ColumnType.NOMINAL, 0.0, _("no values: every cell is empty"))
    if pd.api.types.is_bool_dtype(values):
        return TypeGuess(ColumnType.NOMINAL, 1.0, _("yes/no values"))
    if pd.api.types.is_datetime64_any_dtype(values):
        if not in_date_range(values).all():
            return TypeGuess(
                ColumnType.NOMINAL,
                0.5,
                _(
                    "dates before 1678 or after 2261, which tclose cannot compute with as "
                    "dates: kept as categories"
                ),
            )
        return TypeGuess(ColumnType.DATE, 1.0, _("all values are dates"))
    if pd.api.types.is_numeric_dtype(values):
        return _numeric_guess(values.astype(float), str(series.name or ""))
    return _text_guess(values.astype("str"))


def infer_types(df: pd.DataFrame) -> dict[str, TypeGuess]:
    """A guess for every column of ``df`` (see the module's docstring for the rules)."""
    return {col: infer_type(df[col]) for col in df.columns}


def named_like_codes(name: str) -> bool:
    """Whether ``name`` is one a column of category codes goes by ("commune", "REGION",
    "id_occupation", "naics_code", "CodPostal")."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(name))
    tokens = [t for t in re.split(r"[^0-9a-zA-Z\u00C0-\u024F]+", spaced.lower()) if t]
    words = {t.strip("0123456789") for t in tokens}
    return bool(words & CODE_WORDS) or any(t.startswith(("cod", "id")) for t in tokens[:1])


def code_reason(name: str, values: pd.Series, *, labelled: bool = False) -> str | None:
    """Why the numbers of column ``name`` are codes of categories (None: they are not).

    Whole numbers are codes when they carry value labels (``labelled``: a statistics file's
    "1 = urban, 2 = rural"), or when each value is repeated on :data:`CODE_REPEATS` records
    or more on average and the name is a code's (:func:`named_like_codes`).  A quantity
    named "age" or "income" stays a number; a near-unique code is an identifier's business
    (the role suggestion), not this rule's.
    """
    known = pd.to_numeric(values.dropna(), errors="coerce").dropna()
    if known.empty or not bool(np.all(np.floor(known) == known)):
        return None
    distinct = int(known.nunique())
    if labelled:
        return _(
            "whole numbers with value labels ({distinct} different): codes of categories, "
            "typed nominal"
        ).format(distinct=number(distinct))
    repeats = len(known) / distinct
    if distinct < 2 or repeats < CODE_REPEATS or not named_like_codes(name):
        return None
    return _(
        "whole numbers, {distinct} different values repeated about {repeats} times each, "
        "in a column named like a code ('{name}'): codes of categories, typed nominal "
        "(choose numeric if they are quantities)"
    ).format(distinct=number(distinct), repeats=number(round(repeats)), name=name)


def _numeric_guess(values: pd.Series, name: str = "") -> TypeGuess:
    # the values' counts only where a rule reads them: a column of a million distinct
    # amounts with no negative code is told apart without counting them
    counted: list[pd.Series] = []

    def counts_of() -> pd.Series:
        if not counted:
            counted.append(values.value_counts())
        return counted[0]

    sentinel = _sentinel(values, counts_of)
    suggested = (_number_text(sentinel),) if sentinel is not None else ()
    if sentinel is not None:
        n = int(counts_of()[sentinel])
        return TypeGuess(
            ColumnType.NUMERIC,
            0.9,
            _(
                "numbers; the smallest value, {sentinel}, appears {n} times: probably "
                "a code for 'missing' or 'not applicable' (declare it as such)"
            ).format(sentinel=_number_text(sentinel), n=number(n)),
            suggested,
        )
    reason = code_reason(name, values)
    if reason is not None:
        return TypeGuess(ColumnType.NOMINAL, 0.8, reason)
    whole = bool(np.all(np.floor(values) == values))
    counts = counts_of() if whole else None
    if counts is not None and len(counts) <= _FEW_CODES and len(values) >= 4 * len(counts):
        shown = ", ".join(_number_text(v) for v in sorted(counts.index))
        return TypeGuess(
            ColumnType.NUMERIC,
            0.6,
            _(
                "whole numbers with only {counts} different values ({shown}): if they "
                "are codes of categories, choose ordinal (ordered) or nominal"
            ).format(counts=len(counts), shown=shown),
        )
    return TypeGuess(ColumnType.NUMERIC, 1.0, _("all values are numbers"))


def _sentinel(values: pd.Series, counts_of: Callable[[], pd.Series]) -> float | None:
    """The smallest value when it looks like a code for 'missing' (-9, -99, -10000...).

    It must be negative, code-like (a single digit, all nines, or a power of ten), and
    frequent (at least 5 times, 0.5% of the values, and three times as common as the typical
    value): a real minimum is rarely all three.  ``counts_of()`` gives the values' counts
    (asked only for a negative whole minimum).
    """
    value = float(values.min())
    if value > -1 or not value.is_integer():
        return None
    counts = counts_of()
    if len(counts) < 3:
        return None
    digits = str(int(-value))
    code_like = len(digits) == 1 or set(digits) == {"9"} or digits.rstrip("0") == "1"
    n = counts[value]
    if code_like and n >= max(5, 0.005 * len(values)) and n >= 3 * counts.median():
        return value
    return None


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _text_guess(values: pd.Series) -> TypeGuess:
    counts = values.value_counts()
    distinct = counts.index.astype("str")
    n = len(values)
    numbers = pd.to_numeric(pd.Series(distinct).str.strip(), errors="coerce").to_numpy()
    is_number = ~np.isnan(numbers)
    number_share = float(counts.to_numpy()[is_number].sum()) / n
    if number_share == 1.0:
        if pd.Series(distinct).str.match(LEADING_ZERO.pattern).any():
            return TypeGuess(
                ColumnType.NOMINAL,
                0.8,
                _("numbers with leading zeros (such as postcodes): codes, kept as text"),
            )
        return TypeGuess(ColumnType.NUMERIC, 1.0, _("all values are numbers (stored as text)"))
    if number_share >= 0.5:
        texts = counts[~is_number]
        suggested = tuple(str(t) for t in texts.index[:_MAX_SUGGESTED])
        shown = ", ".join(f"'{t}' ({number(c)}×)" for t, c in texts.head(_MAX_SUGGESTED).items())
        return TypeGuess(
            ColumnType.NUMERIC,
            number_share,
            _(
                "mixed: {number_share} numbers, also the texts {shown}; declare "
                "them as missing codes to use the column as numbers"
            ).format(number_share=percent(number_share), shown=shown),
            suggested,
        )
    date_guess = _date_guess(counts)
    if date_guess is not None:
        return date_guess
    if len(counts) == n and n > 20:
        return TypeGuess(
            ColumnType.NOMINAL,
            0.9,
            _(
                "every value is different: this looks like an identifier (a name or an ID "
                "number), which must not be released"
            ),
        )
    ordinal = _ordinal_guess(list(distinct))
    if ordinal is not None:
        return ordinal
    codes = tuple(str(t) for t in counts.index if str(t).strip().casefold() in MISSING_WORDS)
    if codes:
        rest = _text_guess(values[~values.isin(codes)]) if counts.drop(list(codes)).size else None
        if rest is not None and rest.type != ColumnType.NOMINAL:
            # ordered only once the code is declared missing (the order has no place for
            # it): categories until then, the order proposed in the note
            ordinal = rest.type == ColumnType.ORDINAL
            note = (
                _("once {codes} (a missing-value code) is declared missing: {note}")
                if ordinal
                else _("{note}, once {codes} (a missing-value code) is declared missing")
            )
            return TypeGuess(
                ColumnType.NOMINAL if ordinal else rest.type,
                rest.confidence * 0.9,
                note.format(note=rest.note, codes=_quoted(codes)),
                codes,
                rest.order,
            )
        share = float(counts[list(codes)].sum()) / n
        return TypeGuess(
            ColumnType.NOMINAL,
            1.0 - number_share,
            _(
                "text with {n} different values; {codes} ({share} of the "
                "cells) looks like a missing-value code"
            ).format(
                n=number(len(counts) - len(codes)), codes=_quoted(codes), share=percent(share)
            ),
            codes,
        )
    k = len(counts)
    note = _("text with {k} different values").format(k=number(k))
    if number_share > 0:
        note += _(" ({number_share} of the cells are numbers)").format(
            number_share=percent(number_share)
        )
    return TypeGuess(ColumnType.NOMINAL, 1.0 - number_share, note)


def _date_guess(counts: pd.Series) -> TypeGuess | None:
    distinct = pd.Series(counts.index.astype("str"))
    if len(distinct) == 0:
        return None
    if dates_from_text(distinct) is not None:
        return TypeGuess(ColumnType.DATE, 1.0, _("all values are dates"))
    sample = distinct.head(2000)
    parsed = pd.to_datetime(sample.str.strip(), errors="coerce", format="ISO8601")
    ok = (parsed.notna() & in_date_range(parsed)).to_numpy()
    weights = counts.to_numpy()[: len(sample)]
    share = float(weights[ok].sum()) / float(weights.sum())
    if share >= 0.8:
        texts = tuple(str(t) for t in sample[~ok].head(_MAX_SUGGESTED))
        return TypeGuess(
            ColumnType.DATE,
            share,
            _("{share} dates; also the texts {texts}: declare them as missing codes").format(
                share=percent(share), texts=", ".join(map(repr, texts))
            ),
            texts,
        )
    return None


def _ordinal_guess(categories: list[str]) -> TypeGuess | None:
    """An ordinal guess when the categories have a recognisable order (see module doc)."""
    if len(categories) < 2:
        return None
    folded = [
        " ".join(c.casefold().replace("_", " ").replace("-", " ").split()) for c in categories
    ]
    for scale in ORDERED_SCALES:
        rank = {word.replace("-", " "): i for i, words in enumerate(scale) for word in words}
        if all(f in rank for f in folded) and len({rank[f] for f in folded}) == len(folded):
            ranks = [rank[f] for f in folded]
            order = tuple(c for _, c in sorted(zip(ranks, categories, strict=True)))
            return _ordered(
                order,
                0.9 if len(categories) >= 3 else 0.7,
                _("categories with a natural order ({order}); check the order"),
            )
    education = _education_order(categories, folded)
    if education is not None:
        return _ordered(education, 0.8, _("education levels in order ({order}); check the order"))
    if not 3 <= len(categories) <= _MAX_NUMBERED:
        return None
    keys = []
    for c in categories:
        found = _NUMBER_IN_LABEL.search(c)
        if found is None or is_number(c):
            return None
        key = float(found.group(1).replace(",", "."))
        if _BELOW.search(c):
            key -= 0.5
        elif _ABOVE.search(c):
            key += 0.5
        keys.append(key)
    if len(set(keys)) != len(keys):
        return None
    order = tuple(c for _, c in sorted(zip(keys, categories, strict=True)))
    return _ordered(order, 0.7, _("categories numbered in order ({order}); check the order"))


def _ordered(order: tuple[str, ...], confidence: float, why: str) -> TypeGuess:
    """An ordinal guess in ``order``, said as ``why`` with the order shown low to high (the
    user checks it before a release relies on it)."""
    return TypeGuess(
        ColumnType.ORDINAL, confidence, why.format(order=" < ".join(order)), order=order
    )


def education_rank(label: str) -> float | None:
    """The rank of an education level named ``label`` (0 none … 8 doctorate; grades 1 to 13
    between preschool and high school), or None when it does not name one."""
    folded = " ".join(label.casefold().replace("_", " ").replace("-", " ").split())
    for pattern, rank in EDUCATION_LEVELS:
        found = pattern.search(folded)
        if found is None:
            continue
        if rank < 0:  # a grade: "grade 9", "9th", "7th 8th" (its first number)
            grade = int(next(g for g in found.groups() if g and g.isdigit()))
            return 2.0 + grade / 20 if 1 <= grade <= 13 else None
        return rank
    return None


def _education_order(categories: list[str], folded: list[str]) -> tuple[str, ...] | None:
    """The categories in the order of the education levels they name, when every one names
    a level, three levels or more are named, and at least one is a school or degree (not
    only grades, which the numbered rule orders)."""
    if len(categories) < 3:
        return None
    ranks = [education_rank(c) for c in folded]
    if any(r is None for r in ranks) or len(set(ranks)) < 3:
        return None
    if all(2.0 < r < 2.7 for r in ranks if r is not None):
        return None
    keyed = sorted(zip(ranks, folded, categories, strict=True), key=lambda x: (x[0], x[1]))
    return tuple(c for _, _, c in keyed)


def _quoted(texts: Iterable[str]) -> str:
    return ", ".join(f"'{t}'" for t in texts)
