"""Run pip with the environment markers of the platform it downloads for (the wheelhouses).

``pip download --platform TAG --python-version X.Y`` picks wheels for the target, but judges
environment markers (``numba; sys_platform == 'darwin' and platform_machine == 'arm64'``)
by the machine it runs on: a wheelhouse for an Intel Mac made on Linux would ask for numba,
which has no Intel-Mac wheel, and one for Windows made on an Intel Mac would leave it out.
This runs pip with the markers of the first ``--platform`` tag and the ``--python-version``
on its command line; without them it is plain pip.

    python installer/target_pip.py download --platform win_amd64 --python-version 3.11 ...
"""

from __future__ import annotations

import re
import runpy
import sys


def _option(argv: list[str], name: str) -> str | None:
    """The first value of ``--name VALUE`` or ``--name=VALUE`` in ``argv``."""
    for i, arg in enumerate(argv):
        if arg == name and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def target_environment(argv: list[str]) -> dict[str, str]:
    """The marker values pip's command line ``argv`` targets (empty: the running machine's)."""
    env: dict[str, str] = {}
    tag = _option(argv, "--platform")
    if tag:
        if tag.startswith("win"):
            machine = {"win_amd64": "AMD64", "win_arm64": "ARM64", "win32": "x86"}.get(tag, "")
            env.update(sys_platform="win32", os_name="nt", platform_system="Windows")
        elif tag.startswith("macosx"):
            found = re.search(r"(arm64|x86_64)$", tag)  # universal2: either, left as is
            machine = found.group(1) if found else ""
            env.update(sys_platform="darwin", os_name="posix", platform_system="Darwin")
        else:  # manylinux_2_34_x86_64, manylinux2014_aarch64, musllinux_1_2_x86_64, linux_…
            found = re.search(r"(x86_64|aarch64|armv7l|ppc64le|s390x|i686)$", tag)
            machine = found.group(1) if found else ""
            env.update(sys_platform="linux", os_name="posix", platform_system="Linux")
        if machine:
            env["platform_machine"] = machine
    version = _option(argv, "--python-version")
    if version:
        parts = version.split(".") if "." in version else [version[0], version[1:]]
        env["python_version"] = ".".join(parts[:2])
        env["python_full_version"] = ".".join([*parts[:3], "0"][:3])
    return env


def main(argv: list[str]) -> None:
    env = target_environment(argv)
    if env:
        from pip._vendor.packaging import markers

        target = {**markers.default_environment(), **env}
        markers.default_environment = lambda: dict(target)
    sys.argv = ["pip", *argv]
    runpy.run_module("pip", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
