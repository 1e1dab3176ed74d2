"""``--cluster``: where a command computes (this computer, or a Dask cluster).

Not a release parameter: the same parameters give an equally private release wherever it is
computed, so the option is parsed into a :class:`engine.distributed.cluster.Backend`, never
into :class:`~engine.params.ReleaseParams`.  Parsing needs no Dask; running on a cluster
needs the ``tclose[distributed]`` extra.
"""

from __future__ import annotations

import argparse
from typing import Any

from engine.i18n import _


def add_cluster_argument(p: argparse.ArgumentParser, help: str | None = None) -> None:
    """``--cluster``; ``help`` says what it does where a command reads it otherwise."""
    p.add_argument(
        "--cluster",
        metavar="local[:N]|tcp://HOST:PORT",
        help=help
        or _(
            "compute on a Dask cluster: local (N worker processes) or a scheduler address "
            "(needs tclose[distributed])"
        ),
    )


def parse_cluster(text: str | None) -> Any:
    """The :class:`~engine.distributed.cluster.Backend` of a ``--cluster`` value."""
    from engine.distributed.cluster import parse_cluster as parse

    return parse(text)
