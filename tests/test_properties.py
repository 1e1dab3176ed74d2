"""Property tests: random data and parameters, every release verifies (issue 3)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InfeasibleError
from engine.params import ReleaseParams
from engine.release import anonymize, tclose_partition, verify_release
from engine.release.partition import class_bounds


@st.composite
def datasets(draw):
    n = draw(st.integers(1, 90))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_conf = draw(st.integers(1, 3))
    frame = pd.DataFrame(
        {
            # numeric QI with ties and missing values
            "age": rng.choice([20.0, 30.0, 30.0, 45.5, 60.0, np.nan], n),
            "region": rng.choice(["n", "s", "e", "w", ""], n),
        }
    )
    frame["region"] = frame["region"].replace("", None)
    kinds = draw(st.lists(st.sampled_from(["num", "tie", "cat"]), min_size=n_conf, max_size=n_conf))
    conf = []
    for i, kind in enumerate(kinds):
        name = f"c{i}"
        if kind == "num":
            values = rng.normal(size=n).round(2)
        elif kind == "tie":
            values = np.where(rng.random(n) < 0.6, 0.0, rng.integers(1, 50, n)).astype(float)
        else:
            values = rng.choice(["a", "b", "c", "d"], n).astype(object)
        missing = rng.random(n) < draw(st.sampled_from([0.0, 0.1]))
        values = pd.Series(values).mask(missing)
        frame[name] = values
        conf.append(name)
    return frame, tuple(conf)


@settings(max_examples=40)
@given(
    data=datasets(),
    t=st.floats(1.0, 6.0),
    k=st.integers(1, 100),
    joint=st.booleans(),
    qi_output=st.sampled_from(["centroid", "range"]),
    conf_output=st.sampled_from(["label", "representative"]),
)
def test_feasible_releases_verify_and_infeasible_ones_name_what_works(
    data, t, k, joint, qi_output, conf_output
):
    frame, conf = data
    config = ReleaseParams(
        qi=("age", "region"),
        confidential=conf,
        k=k,
        t=t,
        joint=joint,
        qi_output=qi_output,
        confidential_output=conf_output,
        seed=0,
    )
    try:
        release = anonymize(frame, config)
    except InfeasibleError as err:
        assert k > len(frame)
        assert err.alternatives
        fixed = err.alternatives[0].params
        release = anonymize(
            frame,
            ReleaseParams(
                qi=("age", "region"), confidential=conf, k=fixed["k"], t=t, joint=joint, seed=0
            ),
        )
        assert release.verification.ok
        return
    v = verify_release(release.table, ["age", "region"], list(conf), t=t, k=k)
    assert v.ok, v.message
    assert len(release.table) == len(frame)


@settings(max_examples=40)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 300),
    b=st.integers(1, 6),
    t=st.floats(1.0, 4.0),
    k=st.integers(1, 30),
    foreign=st.booleans(),
)
def test_partition_meets_the_bounds_or_names_a_t_that_does(seed, n, b, t, k, foreign):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, 2)).astype(float)
    codes = rng.integers(0, b, n)
    counts = np.bincount(codes, minlength=b)
    shares = rng.dirichlet(np.ones(b)) if foreign else None
    if foreign and (counts == 0).any():
        shares = np.where(counts == 0, 0.0, shares)
        shares = shares / shares.sum()
    try:
        labels = tclose_partition(X, codes, k, t, shares=shares)
    except InfeasibleError as err:
        assert k > n or foreign
        smaller_t = [a.params for a in err.alternatives if a.params["k"] == k]
        if not smaller_t:
            return
        t = smaller_t[0]["t"]
        labels = tclose_partition(X, codes, k, t, shares=shares)
    p = counts / n if shares is None else shares
    sizes = np.bincount(labels)
    assert sizes.min() >= k
    for c in range(len(sizes)):
        n_e = np.bincount(codes[labels == c], minlength=b)
        lower, upper = class_bounds(sizes[c], p, t)
        assert (lower <= n_e).all() and (n_e <= upper).all()
