"""What the platform's accessibility bus (AT-SPI) shows of tclose, page by page.

Run with the system's Python (``python3-pyatspi``), beside ``drive.py SYNC walk``: for each
page the driver announces, every focusable object on screen is written with its role, name
and description, and the objects without a name are counted.  This is the tree Orca reads.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pyatspi

#: roles whose items and cells are the control's own (not walked into)
LEAVES = {"table", "list", "tree", "tree table", "combo box", "page tab list"}


def find_app():
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is not None and "tclose" in (app.name or "").lower():
            return app
    return None


def walk(node, depth: int, out: list) -> None:
    try:
        states = node.getState()
        role = node.getRoleName()
    except Exception:
        return
    showing = states.contains(pyatspi.STATE_SHOWING)
    if depth > 1 and not showing:
        return
    if states.contains(pyatspi.STATE_FOCUSABLE) and showing:
        out.append((role, node.name or "", (node.description or "")[:90]))
    if depth > 40 or role in LEAVES:
        return
    for i in range(node.childCount):
        try:
            child = node.getChildAtIndex(i)
        except Exception:
            continue
        if child is not None:
            walk(child, depth + 1, out)


def main() -> None:
    sync, target = Path(sys.argv[1]), Path(sys.argv[2])
    lines: list[str] = []
    start = time.monotonic()
    while not (sync / "end").exists() and time.monotonic() - start < 1800:
        for ready in sorted(sync.glob("*.ready")):
            name = ready.stem
            if (sync / f"{name}.done").exists():
                continue
            time.sleep(1.0)
            app = find_app()
            objects: list = []
            if app is None:
                lines.append(f"== {name}: tclose is not on the accessibility bus")
            else:
                walk(app, 0, objects)
                unnamed = [o for o in objects if not o[1].strip()]
                lines.append(
                    f"== {name}: {len(objects)} focusable objects shown, "
                    f"{len(unnamed)} without a name"
                )
                lines.extend(f"   {role:<16} {name!r}  {desc!r}" for role, name, desc in objects)
            (sync / f"{name}.done").write_text("", encoding="utf-8")
            print(lines[-1 - len(objects)] if objects else lines[-1], flush=True)
        time.sleep(0.2)
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
