"""A mechanism states its own guarantees: the words of each way it protects a column live in
its class (``Mechanism.column_guarantees``), and ``engine.privacy`` asks the registry for
them, so a mechanism added to the registry has its guarantees in the plan and the summary
without a line elsewhere changing."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from benchmarks.synthetic import generate
from engine import privacy as pv
from engine.i18n import set_language
from engine.mechanisms import MECHANISMS, ColumnGuarantee, GroupBound, Laplace
from engine.params import Options, ReleaseParams
from engine.release import anonymize, plan


@pytest.mark.parametrize("name", list(MECHANISMS))
def test_every_column_mechanism_states_its_guarantees(name: str) -> None:
    mechanism = MECHANISMS[name]
    declared = mechanism.column_guarantees()
    if not mechanism.noise:  # t-closeness: the shared statements of Construction A
        assert declared == {} and pv.column_guarantee(name) is None
        assert name in pv.calculator_mechanisms()
        return
    params = ReleaseParams(
        qi=("a",), confidential=("c",), k=5, epsilon=1.0, mechanism=name, bounds={"c": (0, 1)}
    )
    used = {mechanism.column_mechanism(params, numeric) for numeric in (True, False)}
    used |= {mechanism.column_mechanism(params.replace(insensitive=True), True)}
    assert used <= set(declared) <= set(pv.calculator_mechanisms())
    for column, words in declared.items():
        assert words.what and words.source and pv.column_guarantee(column) == words
        items = pv.guarantees(epsilon=1.0, k=5, n=100, mechanism=column)
        dp = next(g for g in items if g.source == words.source)
        assert dp.statement.endswith(f"{words.what}.") and words.assumption in dp.assumption
        names = {g.name for g in items}
        if words.group is None:  # each value its own noise: plain local DP
            assert "local differential privacy" in names
        else:  # noise on groups: their per-record bound instead
            assert words.group.name in names and "local differential privacy" not in names


def test_the_calculator_offers_the_registry() -> None:
    offered = ("buckets", "laplace", "insensitive", "randomized_response")
    assert pv.calculator_mechanisms() == offered


def test_the_words_are_in_the_readers_language() -> None:
    try:
        set_language("es")
        spanish = Laplace.column_guarantees()["laplace"]
    finally:
        set_language("en")
    assert spanish.what != Laplace.column_guarantees()["laplace"].what
    assert pv.guarantees(epsilon=1.0, mechanism="laplace")[0].statement.endswith(
        "Laplace noise of scale Δ/ε on each clamped value."
    )


class Fake(Laplace):
    """A third mechanism, declared only here: Laplace's noise under its own words."""

    name: ClassVar[str] = "fake"
    title: ClassVar[str] = "fake noise"

    @classmethod
    def column_mechanism(cls, params: Any, numeric: bool) -> str | None:
        return "fake_noise" if numeric else "fake_response"

    @classmethod
    def column_guarantees(cls) -> dict[str, ColumnGuarantee]:
        return {
            "fake_noise": ColumnGuarantee(
                what="fake noise on each value",
                source="Fake & Made-up 2026",
                assumption="The fake noise is drawn fairly.",
                group=GroupBound("fake group ε", "e^(k·ε) = {factor}", "Fake groups.", "Fake"),
            ),
            "fake_response": ColumnGuarantee(what="fake answers", source="Fake 2026"),
        }


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> type[Fake]:
    """``Fake`` added to the registry (as its line in ``engine/mechanisms/__init__.py`` would:
    the parameters' allowed names are read off the registry when the module loads)."""
    monkeypatch.setitem(MECHANISMS, Fake.name, Fake)
    monkeypatch.setitem(ReleaseParams.CONSTRAINTS, "mechanism", Options(values=tuple(MECHANISMS)))
    return Fake


def test_a_registered_mechanism_states_its_guarantees_in_the_plan_and_summary(fake) -> None:
    assert {"fake_noise", "fake_response"} <= set(pv.calculator_mechanisms())
    data = generate(200, seed=5)
    params = ReleaseParams(
        qi=("age", "hours"), confidential=("income",), k=5, epsilon=1.0, mechanism="fake",
        bounds={"income": (0.0, 200_000.0)}, insensitive=True, seed=2,
    )  # fmt: skip
    planned = plan(data, params)
    assert [c.mechanism for c in planned.noise] == ["fake_noise"]
    release = anonymize(data, params, plan=planned)
    for items in (planned.guarantees, release.summary.guarantees):
        named = {g.name: g for g in items}
        dp = named["ε-differential privacy of the confidential data"]
        assert dp.statement.endswith("; fake noise on each value.")
        assert dp.source == "Fake & Made-up 2026"
        assert dp.assumption.endswith(" The fake noise is drawn fairly.")
        assert named["fake group ε"].values == {"epsilon_local": 5.0, "k": 5}
        assert named["fake group ε"].statement == f"e^(k·ε) = {pv._fmt(pv._exp(5.0))}"
        assert "local differential privacy" not in named  # replaced by the group's bound


class Grouped(Fake):
    """A mechanism whose noise sits on groups of 3 records, and whose settings add to the
    assumption of its ε statement."""

    name: ClassVar[str] = "grouped"

    @classmethod
    def group_size(cls, params: Any) -> int | None:
        return 3

    @classmethod
    def value_assumption(cls, params: Any, numeric: bool) -> str:
        return "Grouped in threes." if numeric else ""


def test_a_mechanism_sizes_its_groups_and_adds_to_its_assumption(monkeypatch) -> None:
    monkeypatch.setitem(MECHANISMS, Grouped.name, Grouped)
    monkeypatch.setitem(ReleaseParams.CONSTRAINTS, "mechanism", Options(values=tuple(MECHANISMS)))
    data = generate(200, seed=5)
    params = ReleaseParams(
        qi=("age", "hours"), confidential=("income",), k=5, epsilon=1.0, mechanism="grouped",
        bounds={"income": (0.0, 200_000.0)},
    )  # fmt: skip
    named = {g.name: g for g in plan(data, params).guarantees}
    dp = named["ε-differential privacy of the confidential data"]
    assert dp.assumption.endswith(" The fake noise is drawn fairly. Grouped in threes.")
    assert named["fake group ε"].values == {"epsilon_local": 3.0, "k": 3}  # not k = 5
