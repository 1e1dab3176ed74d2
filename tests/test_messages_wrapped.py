"""Every sentence the engine says to a person is marked for translation.

A message written as a plain literal reaches a Spanish or French reader in English (the
cluster's "No column named …", the command line's "Wrote …").  This test reads the engine's
source (its syntax tree, not its text) and fails on any literal with words that is handed,
unwrapped, to what a person sees:

* an error raised on purpose (:class:`~engine.errors.TcloseError` and its kinds), a one-click
  fix, a warning, a progress step (the app and the command line show it);
* on the command line: ``print``, the lines it assembles, each flag's help and each
  command's description;
* a reader's note on a file (``info.notes.append(…)``, ``report.notes.append(…)``,
  ``notes.append(…)``, and a ``note = …`` a reader hands on): the import page, the command
  line and the report show them.

"Wrapped" means inside ``_()``, ``ngettext()``, ``pgettext()``, ``N_()`` or Qt's
``QT_TRANSLATE_NOOP`` (:mod:`engine.i18n`); a template's ``.format(...)`` may follow.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "engine"

#: what marks a message for the catalogues (engine/catalogues.py: KEYWORDS)
WRAPPERS = {"_", "ngettext", "pgettext", "N_", "QT_TRANSLATE_NOOP"}
#: calls whose first arguments a person reads, anywhere in the engine
SAID = {
    "TcloseError", "InputError", "InfeasibleError", "VerificationError", "CancelledError",
    "BoundsRequiredError", "ClusterError", "OutputError", "InputChangedError",
    "FeasibleAlternative", "Fix", "Feasibility", "Phrase", "warn", "step",
}  # fmt: skip
#: calls of the command line whose arguments it prints
PRINTED = {"print", "append", "add_argument_group", "exit"}
#: keywords that hold help a person reads
HELP_KEYWORDS = {"help", "description", "epilog"}
#: a word: two letters or more
WORD = re.compile(r"[A-Za-z]{2,}")

#: (file, call) pairs allowed to say a literal, and why
ALLOWED = {
    # a maintainer's tool, not the product: it reports the catalogue files it wrote
    ("catalogues.py", "print"),
}


def _name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _bare(node: ast.AST) -> bool:
    """Whether ``node`` holds a literal with words outside any wrapper."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(WORD.search(node.value))
    if isinstance(node, ast.JoinedStr):
        return any(
            isinstance(part, ast.Constant) and WORD.search(part.value) for part in node.values
        ) or any(_bare(part.value) for part in node.values if isinstance(part, ast.FormattedValue))
    if isinstance(node, ast.Call):
        name = _name(node)
        if name in WRAPPERS:
            return False
        if name in ("format", "join") and isinstance(node.func, ast.Attribute):
            return _bare(node.func.value) or any(_bare(a) for a in node.args)
        return False
    if isinstance(node, ast.BinOp):
        return _bare(node.left) or _bare(node.right)
    if isinstance(node, ast.IfExp):
        return _bare(node.body) or _bare(node.orelse)
    if isinstance(node, ast.GeneratorExp | ast.ListComp):
        return _bare(node.elt)
    return False


def unwrapped(path: Path, *, cli: bool) -> list[str]:
    """Each call of ``path`` that hands a person an unwrapped literal, as "file:line call";
    ``cli``: a module of the command line (what it prints and its help count too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node)
        helps = [k.value for k in node.keywords if k.arg in HELP_KEYWORDS]
        if name in SAID or (cli and name in PRINTED):
            said = [*node.args[:2], *helps]
        elif cli:
            said = helps  # add_argument("--flag", help=…): the flag's name is no sentence
        else:
            continue
        if (path.name, name) not in ALLOWED and any(_bare(a) for a in said):
            found.append(f"{path.name}:{node.lineno} {name}")
    return found


#: the methods that add to a list of notes, and which argument is the note
NOTE_METHODS = {"append": 0, "extend": 0, "insert": 1}


def _is_notes(node: ast.AST) -> bool:
    """``notes`` or ``anything.notes``: a list of notes for a person."""
    return (isinstance(node, ast.Name) and node.id == "notes") or (
        isinstance(node, ast.Attribute) and node.attr == "notes"
    )


def unwrapped_notes(path: Path) -> list[str]:
    """Each note of ``path`` that a person gets unwrapped, as "file:line notes.<method>" (or
    "file:line note" for a ``note = …`` handed on), wherever in the engine it is written."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if not (isinstance(func, ast.Attribute) and _is_notes(func.value)):
                continue
            at = NOTE_METHODS.get(func.attr)
            if at is not None and len(node.args) > at and _bare(node.args[at]):
                found.append((node.lineno, f"notes.{func.attr}"))
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named = any(isinstance(t, ast.Name) and t.id == "note" for t in targets)
            if named and _bare(node.value):
                found.append((node.lineno, "note"))
    return [f"{path.name}:{line} {what}" for line, what in sorted(found)]


def test_every_message_of_the_engine_is_marked_for_translation() -> None:
    found = [
        f"{path.parent.name}/{hit}"
        for path in sorted(ENGINE.rglob("*.py"))
        for hit in unwrapped(path, cli="cli" in path.relative_to(ENGINE).parts)
    ]
    assert not found, "messages a reader gets in English only:\n" + "\n".join(found)


def test_every_note_on_a_file_is_marked_for_translation() -> None:
    """What a reader noticed in a file (a title row skipped, a hidden sheet passed over,
    thousands separators) is shown on the import page in the app's language."""
    found = [
        f"{path.parent.name}/{hit}"
        for path in sorted(ENGINE.rglob("*.py"))
        for hit in unwrapped_notes(path)
    ]
    assert not found, "notes a reader gets in English only:\n" + "\n".join(found)


def test_the_scan_finds_an_unwrapped_note(tmp_path: Path) -> None:
    """The notes' scan itself: each way a note is added unwrapped, and the wrapped forms
    (and a note computed elsewhere, which its own line answers for) it lets pass."""
    module = tmp_path / "probe.py"
    module.write_text(
        "info.notes.append(f'Column {name} has thousands separators.')\n"
        "report.notes.append('Numbers use a decimal comma.')\n"
        "notes.append(f'{n} blank row(s) were left out.')\n"
        "info.notes.extend([f'Column {c} was renamed.' for c in cols])\n"
        "info.notes.insert(0, 'The first line names the separator.')\n"
        "note = f'Sheet {sheet} was taken to mean {name}.'\n"
        "info.notes.append(_('Column {name} has thousands separators.').format(name=name))\n"
        "notes.append(ngettext('{n} row', '{n} rows', n).format(n=number(n)))\n"
        "note = _('Sheet {sheet} was taken to mean {name}.')\n"
        "info.notes.append(decoded.note)\n"
        "info.notes.extend(report.notes)\n"
        "rows.append(f'{name}: {value}')\n",
        encoding="utf-8",
    )
    hits = [hit.split(" ")[-1] for hit in unwrapped_notes(module)]
    assert hits == [
        "notes.append", "notes.append", "notes.append", "notes.extend", "notes.insert", "note"
    ]  # fmt: skip


def test_the_scan_finds_an_unwrapped_message(tmp_path: Path) -> None:
    """The scan itself: the kinds of unwrapped message it must see, and the wrapped forms
    it must let pass."""
    module = tmp_path / "probe.py"
    module.write_text(
        "raise InputError(f'No column named {name}.')\n"
        "task.step(0.5, 'Forming classes')\n"
        "print('Wrote ' + ', '.join(files))\n"
        "parser.add_argument('--json', help='print the plan as JSON')\n"
        "raise InputError(_('No column named {name}.').format(name=name))\n"
        "parser.add_argument('--json', help=_('print the plan as JSON'))\n"
        "print(json_text(payload))\n",
        encoding="utf-8",
    )
    hits = unwrapped(module, cli=True)
    assert [hit.split(" ")[-1] for hit in hits] == ["InputError", "step", "print", "add_argument"]


def _own_scope(node: ast.AST):
    """The nodes of a function's own scope (not of the functions, lambdas and comprehensions
    inside it, which have scopes of their own)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(
            child,
            ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef
            | ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp,
        ):  # fmt: skip
            continue
        yield child
        yield from _own_scope(child)


def test_no_function_hides_the_translation_function() -> None:
    """``host, _, port = …`` in a function that also says ``_("…")`` makes ``_`` a string
    there: the message fails with a TypeError instead of reaching the reader."""
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            scope = list(_own_scope(fn))
            hides = any(
                isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store)
                for n in scope
            )
            says = any(isinstance(n, ast.Call) and _name(n) == "_" for n in scope)
            if hides and says:
                found.append(f"{path.relative_to(ENGINE.parent)}: {fn.name}")
    assert not found, "a local '_' hides the translation function in:\n" + "\n".join(found)
