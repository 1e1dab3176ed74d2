"""One test for every registered mechanism (``engine.mechanisms.MECHANISMS``), in the manner of
scikit-learn's common estimator checks: a mechanism added to the registry is taken through
the whole life of a release — plan, anonymize, verify, summary, report, project round trip
and the cluster — without a line of this file changing."""

from __future__ import annotations

import html
import json

import pandas as pd
import pytest

from benchmarks.synthetic import generate
from engine.mechanisms import MECHANISMS, Mechanism
from engine.params import ReleaseParams
from engine.project import load_project, new_project, save_project
from engine.project.replay import replay
from engine.release import anonymize, applied_parameters, plan, verify_release
from engine.report.html import write_report
from tests.cli_support import tclose

QI = ("age", "hours", "region")
BOUNDS = {"income": (0.0, 200_000.0)}


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    path = tmp_path_factory.mktemp("mechanisms") / "people.csv"
    generate(400, seed=3).to_csv(path, index=False)
    return path


def params_for(name: str) -> ReleaseParams:
    """The same request for any mechanism: ε = 2 (t = e for buckets), k = 5, public bounds."""
    return ReleaseParams(
        qi=QI, confidential=("income",), k=5, epsilon=2.0, mechanism=name, bounds=BOUNDS, seed=1
    )


def test_the_registry_is_what_the_parameters_accept():
    assert next(iter(MECHANISMS)) == ReleaseParams(k=1).mechanism
    for name, mechanism in MECHANISMS.items():
        assert issubclass(mechanism, Mechanism) and mechanism.name == name and mechanism.title
        assert ReleaseParams(k=1, mechanism=name, epsilon=1.0).noise is mechanism.noise
    with pytest.raises(Exception, match="mechanism must be one of"):
        ReleaseParams(k=1, mechanism="gaussian")


@pytest.mark.parametrize("name", list(MECHANISMS))
def test_every_mechanism_lives_a_whole_release(name, source, tmp_path, capsys):
    mechanism = MECHANISMS[name]
    params = params_for(name)
    data = pd.read_csv(source)

    planned = plan(data, params)
    assert planned.feasibility.ok and planned.guarantees
    assert len(planned.noise) == (1 if mechanism.noise else 0)
    for column in planned.noise:
        assert column.mechanism == mechanism.column_mechanism(params, numeric=True)

    release = anonymize(data, params, plan=planned)
    check = verify_release(
        release.table, QI, params.confidential, k=params.k, t=None if mechanism.noise else planned.t
    )
    assert check.ok and release.verification.ok

    published = json.loads(json.dumps(release.summary.public_dict()))
    assert published["parameters"] == applied_parameters(params)
    assert published["parameters"]["mechanism"] == name
    others = {f for m in MECHANISMS.values() if m is not mechanism for f in m.fields}
    assert not others & set(published["parameters"])
    assert release.summary.seed_policy == mechanism.seed_policy(params.seed)

    report = write_report(release, tmp_path / "report.html").read_text(encoding="utf-8")
    for guarantee in release.summary.guarantees:
        assert html.escape(guarantee.name, quote=False) in report

    project = save_project(new_project(source, params), tmp_path / "p.tclose.json")
    again = load_project(project)
    assert again.params == params
    replayed, _ = replay(again)
    pd.testing.assert_frame_equal(replayed.table, release.table)

    if mechanism.cluster:  # one worker, in this process: the same plan and a verified release
        from distributed import Client, LocalCluster

        from engine.distributed.release import anonymize_on_cluster

        with (
            LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as cluster,
            Client(cluster) as client,
        ):
            on_cluster = anonymize_on_cluster(client, source, params)
        assert on_cluster.verification.ok and on_cluster.plan is not None
        assert on_cluster.plan.n_buckets == planned.n_buckets
        assert on_cluster.summary.guarantees == release.summary.guarantees
    else:  # refused in one sentence, before any cluster starts
        out = tmp_path / "on a cluster.csv"
        code = tclose(
            f"anonymize {{src}} -o {{out}} --qi {','.join(QI)} --confidential income --k 5 "
            f"--epsilon 2 --mechanism {name} --bounds income=0:200000 --cluster local:1",
            src=source,
            out=out,
        )
        said = capsys.readouterr().err
        assert code == 2 and not out.exists()
        assert "on a cluster" in said and len(said.strip().splitlines()) == 1
