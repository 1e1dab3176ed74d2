"""One description of a release: validated once, the same through every entry.

A random valid :class:`ReleaseParams` goes through command-line flags, a project file, the
GUI opening that project and saving it again, and ``tclose run``: the parameters come out
equal at every step and, with a seed, the same verified release.  An invalid value is refused
at every entry (flags, project file, GUI) with the same message.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import InputError, ReleaseParams, anonymize, read_table
from engine.cli import build_parser, main
from engine.cli.params_args import params_from_args
from engine.params import join_categories
from engine.project import load_project, new_project, save_project

NUMERIC = ("age", "hours", "income")
NOMINAL = ("region",)
REGIONS = ("north", "south", "east", "west")
#: public categories of the nominal column: its own, more, fewer (some values then lie
#: outside them), and a category that holds the separator and quotes
CATEGORY_CHOICES = (
    REGIONS,
    (*REGIONS, "centre"),
    ("north", "south"),
    ("north", 'a|b "c"', "west"),
)


def survey(n: int = 120) -> pd.DataFrame:
    rng = np.random.default_rng(11)
    return pd.DataFrame(
        {
            "id": np.arange(n),
            "age": rng.integers(18, 80, n),
            "hours": rng.integers(5, 60, n),
            "region": rng.choice(["north", "south", "east", "west"], n),
            "income": rng.integers(0, 90, n) * 1000,
        }
    )


@pytest.fixture(scope="module")
def survey_csv(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("params") / "survey data.csv"
    survey().to_csv(path, index=False)
    return path


#: the values of the issue's table that a GUI once changed on the way (bounds, t, ε, k, b)
EXTREME_BOUNDS = ((0.0, 1_234_567.0), (0.125, 99_999.875))
EXTREME_T = (2.3456, 1500.0)
EXTREME_EPSILON = (0.0005, 60.0)
EXTREME_K = 2_000_000
EXTREME_BUCKETS = 5000


@st.composite
def valid_params(draw, extremes: bool = False) -> ReleaseParams:
    """Any valid parameters for the survey (roles, level, mechanism, outputs, seed).

    ``extremes`` widens the numbers to the whole of what the parameters accept, the table's
    values among them: t up to 1500 with any digits, ε from 0.0005 to 60, k up to two
    million, up to 5000 buckets, bounds such as 0:1,234,567 and 0.125:99,999.875, any seed,
    share of ε and redraw target.  Such parameters need not make a feasible release.
    """
    columns = list(NUMERIC + NOMINAL)
    order = draw(st.permutations(columns))
    n_qi = draw(st.integers(1, 3))
    qi = tuple(order[:n_qi])
    rest = order[n_qi:]
    n_conf = draw(st.integers(1, len(rest)))
    confidential = tuple(rest[:n_conf])
    keep = tuple(rest[n_conf:]) if draw(st.booleans()) else ()
    noise = draw(st.booleans())

    def real(low: float, high: float, edges: tuple[float, ...] = (), digits: int = 3) -> float:
        if not extremes:
            return draw(st.floats(low, high, allow_nan=False).map(lambda x: round(x, digits)))
        return draw(st.sampled_from(edges) | st.floats(low, high, allow_nan=False))

    fields: dict = {
        "qi": qi,
        "confidential": confidential,
        "identifiers": ("id",),
        "keep": keep,
        "k": draw(st.integers(1, EXTREME_K) if extremes else st.integers(1, 12)),
        "qi_output": draw(st.sampled_from(["centroid", "range"])),
        "seed": draw(st.integers(0, 2**64 - 1) if extremes else st.integers(0, 2**32)),
        "joint": draw(st.booleans()),
        "missing": draw(st.sampled_from([(), ("-9",), ("-9", "N/A")])),
        "missing_confidential": draw(st.sampled_from(["bucket", "drop"])),
    }
    if extremes and draw(st.booleans()):
        fields["k"] = draw(st.sampled_from([1, 5, EXTREME_K]))
    if noise:
        fields["mechanism"] = "laplace"
        fields["epsilon"] = real(0.1, 20) if not extremes else real(0.0005, 60, EXTREME_EPSILON)
        pairs = [(0.0, float(draw(st.sampled_from([100, 1000, 100_000]))))]
        if extremes:
            low = draw(st.floats(0, 1e6, allow_nan=False))
            pairs += [*EXTREME_BOUNDS, (low, low + draw(st.floats(1e-3, 1e6)))]
        fields["bounds"] = {c: draw(st.sampled_from(pairs)) for c in confidential if c in NUMERIC}
        fields["categories"] = {
            c: draw(st.sampled_from(CATEGORY_CHOICES)) for c in confidential if c in NOMINAL
        }
        fields["insensitive"] = draw(st.booleans())
        fields["transform"] = draw(st.sampled_from(["none", "log"]))
        if extremes and draw(st.booleans()):
            fields["private_bounds"] = draw(
                st.sampled_from([0.1, 0.125, 0.07]) | st.floats(0.001, 0.999)
            )
        if extremes and draw(st.booleans()):
            fields["resample_until_t"] = real(1, 50, (2.3456,))
    else:
        fields["confidential_output"] = draw(
            st.sampled_from(["mean", "median", "label", "representative"])
        )
        fields["utility_weight"] = draw(
            st.sampled_from([0.0, 0.25, 0.5, 1.0]) | (st.floats(0, 1) if extremes else st.nothing())
        )
        if draw(st.booleans()):
            fields["t"] = real(1, 10, digits=2) if not extremes else real(1, 1500, EXTREME_T)
        else:
            fields["epsilon"] = real(0.1, 5) if not extremes else real(0.0005, 60, EXTREME_EPSILON)
        if draw(st.booleans()):
            top = EXTREME_BUCKETS if extremes else 6
            fields["n_buckets"] = draw(st.integers(2, top))
        if extremes and draw(st.booleans()):
            fields["bounds"] = {
                c: draw(st.sampled_from(EXTREME_BOUNDS)) for c in confidential if c in NUMERIC
            }
    if draw(st.booleans()):
        fields["types"] = {qi[0]: "nominal" if qi[0] in NOMINAL else "numeric"}
    if draw(st.booleans()):
        fields["release_type"] = draw(
            st.sampled_from(["public", "scientific", "licensed", "enclave"])
        )
        fields["scenario"] = draw(st.sampled_from(["", "A neighbour knows age and sex.", "é; =1"]))
    return ReleaseParams(**fields)


def flags(params: ReleaseParams) -> list[str]:
    """The command-line flags that describe ``params``."""
    out = ["--qi", ",".join(params.qi), "--k", str(params.k)]
    if params.confidential:
        out += ["--confidential", ",".join(params.confidential)]
    if params.identifiers:
        out += ["--identifier", ",".join(params.identifiers)]
    if params.keep:
        out += ["--keep", ",".join(params.keep)]
    for col, kind in params.types.items():
        out += ["--type", f"{col}={kind}"]
    if params.missing:
        out += [f"--missing={','.join(params.missing)}"]
    out += ["--missing-confidential", params.missing_confidential]
    if params.t is not None:
        out += ["--t", repr(params.t)]
    if params.epsilon is not None:
        out += ["--epsilon", repr(params.epsilon)]
    out += ["--buckets", str(params.n_buckets) if params.n_buckets is not None else "auto"]
    out += ["--utility-weight", repr(params.utility_weight)]
    if not params.joint:
        out.append("--per-column")
    out += ["--qi-output", params.qi_output, "--confidential-output", params.confidential_output]
    if params.seed is not None:
        out += ["--seed", str(params.seed)]
    out += ["--mechanism", params.mechanism]
    for col, (lo, hi) in params.bounds.items():
        out += ["--bounds", f"{col}={lo!r}:{hi!r}"]
    for col, categories in params.categories.items():
        out += ["--categories", f"{col}={join_categories(categories)}"]
    if params.insensitive:
        out.append("--insensitive")
    out += ["--transform", params.transform]
    if params.release_type is not None:
        out += ["--release-type", params.release_type]
    if params.scenario:
        out += [f"--scenario={params.scenario}"]
    return out


def from_flags(argv: list[str], input_path: Path) -> ReleaseParams:
    args = build_parser().parse_args(["plan", str(input_path), *argv])
    return params_from_args(args)


def few_examples(n: int) -> settings:
    """``n`` examples at most (each runs a release or the GUI), no deadline, and fixtures that
    stay the same over the examples (the survey file is only read)."""
    return settings(
        max_examples=n,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


@few_examples(25)
@given(params=valid_params())
def test_every_field_round_trips_through_dicts_flags_and_project_files(
    params, survey_csv, tmp_path
) -> None:
    assert ReleaseParams.from_dict(json.loads(json.dumps(params.to_dict()))) == params
    assert from_flags(flags(params), survey_csv) == params
    path = save_project(new_project(survey_csv, params), tmp_path / "p.json")
    assert load_project(path).params == params


@pytest.mark.gui
@few_examples(6)
@given(params=valid_params())
def test_cli_project_gui_and_run_give_the_same_release(
    params, survey_csv, tmp_path_factory, capsys
) -> None:
    """Flags → project → the GUI opens it → the GUI saves it → ``tclose run``: one release."""
    from gui.project_io import apply_project, open_project_file, save_project_file
    from gui.state import Session

    tmp = tmp_path_factory.mktemp("chain")
    from_cli = from_flags(flags(params), survey_csv)
    first = save_project(new_project(survey_csv, from_cli), tmp / "first.json")
    opened = open_project_file(None, first)
    session = Session()
    apply_project(session, opened, read_table(survey_csv))
    assert session.params == params
    second = save_project_file(None, session, tmp / "second.json")
    assert load_project(second).params == params
    out = tmp / "replayed.csv"
    assert main(["run", str(second), "-o", str(out), "-q"]) == 0, capsys.readouterr().err
    expected = anonymize(read_table(survey_csv).data, params)
    replayed = read_table(out).data
    assert replayed.astype(str).values.tolist() == expected.table.astype(str).values.tolist()


#: (field, a bad value as the project file holds it, the same value as a flag's text)
INVALID = [
    ("k", 0, "0", "k must be a whole number ≥ 1, not 0."),
    ("k", 2.5, "2.5", "k must be a whole number ≥ 1, not 2.5."),
    ("t", 0.5, "0.5", "t must be a number ≥ 1, not 0.5."),
    ("epsilon", -1.0, "-1", "epsilon must be a number > 0 and ≤ 700, not -1"),
    ("epsilon", 1e6, "1000000", "epsilon must be a number > 0 and ≤ 700, not 1000000"),
    ("seed", -1, "-1", "seed must be a whole number ≥ 0"),
    ("n_buckets", 1, "1", "n_buckets must be 'auto' or a whole number ≥ 2, not 1."),
    ("utility_weight", 1.5, "1.5", "utility_weight must be a number ≥ 0 and ≤ 1, not 1.5."),
]
FLAG = {
    "k": "--k",
    "t": "--t",
    "epsilon": "--epsilon",
    "seed": "--seed",
    "n_buckets": "--buckets",
    "utility_weight": "--utility-weight",
}


@pytest.mark.parametrize(("field", "value", "text", "message"), INVALID)
def test_a_bad_value_gets_the_same_message_everywhere(
    field, value, text, message, survey_csv, tmp_path, capsys
) -> None:
    base = {"qi": ["age"], "confidential": ["income"], "k": 5, "t": 2.0}
    if field == "epsilon":
        base.update(t=None, epsilon=1.0)
    # a project file
    path = save_project(new_project(survey_csv, ReleaseParams.from_dict(base)), tmp_path / "p.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["params"][field] = value
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError) as from_file:
        load_project(path)
    assert message in from_file.value.message
    # the command line: exit 2 and the same words
    argv = ["anonymize", str(survey_csv), "-o", str(tmp_path / "o.csv"), "--qi", "age"]
    argv += ["--confidential", "income"]
    argv += [] if field in ("t", "epsilon") else ["--t", "2"]
    argv += [] if field == "k" else ["--k", "5"]
    assert main([*argv, FLAG[field], text]) == 2
    assert message in capsys.readouterr().err
    # the GUI: every page changes the parameters through the session, which validates
    from gui.state import Session

    session = Session()
    with pytest.raises(InputError) as from_gui:
        session.update(**{field: value})
    assert message in from_gui.value.message
    assert session.params == Session().params  # nothing changed


def test_unknown_and_mistyped_fields_are_refused() -> None:
    with pytest.raises(InputError, match=r"Unknown parameter.*'kk'"):
        ReleaseParams.from_dict({"k": 5, "kk": 3})
    with pytest.raises(InputError, match="mechanism must be one of 'buckets' or 'laplace'"):
        ReleaseParams(k=5, epsilon=1.0, confidential=("x",), mechanism="gaussian")
    with pytest.raises(InputError, match="k must be a whole number"):
        ReleaseParams(k=True)
    with pytest.raises(InputError, match="joint must be true or false"):
        ReleaseParams(k=5, joint="no")
    with pytest.raises(InputError, match=r"private_bounds.*only apply to a noise mechanism"):
        ReleaseParams(k=5, t=2.0, confidential=("x",), private_bounds=0.1)
    with pytest.raises(InputError, match="not both"):
        ReleaseParams(k=5, t=2.0, epsilon=1.0, confidential=("x",))
    with pytest.raises(InputError, match="only one role"):
        ReleaseParams(k=5, t=2.0, qi=("x",), confidential=("x",))
    params = ReleaseParams(k=5, t=2.0, qi=("a",), confidential=("b",))
    with pytest.raises(InputError, match="t must be a number"):
        params.replace(t=float("inf"))
    assert params.replace(k=7).k == 7 and params.k == 5


@pytest.mark.parametrize(("low", "high"), [(5, 1), (3, 3)])
def test_bad_public_bounds_get_the_same_message_everywhere(
    low, high, survey_csv, tmp_path, capsys
) -> None:
    # the order alone is wrong: the message says so, not the largest number allowed
    message = f"bounds['income'] must be [low, high] with low < high, not [{low}, {high}]."
    noise = {"qi": ["age"], "confidential": ["income"], "k": 5, "epsilon": 1.0}
    noise.update(mechanism="laplace", bounds={"income": [0, 100]})
    path = save_project(
        new_project(survey_csv, ReleaseParams.from_dict(noise)), tmp_path / "p.json"
    )
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["params"]["bounds"] = {"income": [low, high]}
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError) as from_file:
        load_project(path)
    assert message in from_file.value.message
    argv = ["anonymize", str(survey_csv), "-o", str(tmp_path / "o.csv"), "--qi", "age"]
    argv += ["--confidential", "income", "--k", "5", "--epsilon", "1", "--mechanism", "laplace"]
    assert main([*argv, "--bounds", f"income={low}:{high}"]) == 2
    assert message in capsys.readouterr().err
    # the GUI: the privacy page's text, parsed for its syntax, then the session validates
    from gui.state import Session, parse_bounds

    session = Session()
    session.update(**{k: v for k, v in noise.items() if k != "bounds"}, t=None, bounds={})
    with pytest.raises(InputError) as from_gui:
        session.update(bounds=parse_bounds(f"income={low}:{high}"))
    assert message in from_gui.value.message


def test_every_field_declares_what_people_read_about_it() -> None:
    """Label, help, unit, range and step: declared once per field, beside its constraint."""
    from engine.params import Number

    assert list(ReleaseParams.FIELDS) == list(ReleaseParams.CONSTRAINTS)
    for name, constraint in ReleaseParams.CONSTRAINTS.items():
        field = ReleaseParams.describe(name)
        assert field.info.label and field.info.help, name
        inner = getattr(constraint, "inner", constraint)
        if isinstance(inner, Number):
            assert (field.low, field.high, field.closed, field.whole) == (
                inner.low,
                inner.high,
                inner.closed,
                inner.whole,
            ), name
            assert field.info.step > 0
    k, t, b, share = (ReleaseParams.describe(n) for n in ("k", "t", "n_buckets", "private_bounds"))
    assert (k.low, k.high, k.whole, k.info.symbol) == (1, None, True, "k")
    assert (t.low, t.high, t.optional, t.info.decimals) == (1, None, True, 3)
    assert b.auto and b.low == 2 and b.high is None
    assert share.info.scale == 100 and share.info.unit == "%" and share.closed == (False, False)
    assert t.allows(1500.0) and not t.allows(0.5) and not k.allows(2.5)
    with pytest.raises(InputError, match="Unknown parameter"):
        ReleaseParams.describe("kk")
