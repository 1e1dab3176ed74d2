"""The same release computed on a Dask cluster (``--cluster local[:N] | tcp://HOST:PORT``).

Needs the optional extra ``tclose[distributed]`` (dask, distributed, pyarrow, crick); nothing
else in the engine imports this package, so the default install never loads Dask.
"""
