"""Text streams that never crash on a character their encoding lacks.

A Windows console shows any character (Python writes to it through the
console's UTF-16 interface), but output that is piped or redirected (``tclose … > log.txt``,
``| findstr``, a scheduled task's log) is encoded in the machine's ANSI code page, usually
cp1252, which has no ε, ≥ or ∞; Python's default is then to crash.  tclose keeps the stream's
encoding -- the code page is what ``type``, ``findstr``, PowerShell and Notepad expect of a
program's output there, so accented names in paths stay readable -- and writes the few
symbols the code page lacks as ASCII: ε as ``eps``, ≥ as ``>=``, ∞ as ``inf``.  JSON output
(``verify``, ``convert --json``) stays exact instead: a string the stream cannot encode is
written with ``\\u`` escapes, which every JSON reader turns back into the character.  Who
wants UTF-8 in a redirected file sets ``PYTHONUTF8=1`` or ``PYTHONIOENCODING=utf-8`` (Python's
own switches; tclose keeps whatever encoding they choose).

The command line and the app's ``--smoke-test`` call :func:`make_streams_safe` once.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import sys
import unicodedata
from typing import Any, TextIO

#: the error handler name the command line's stdout and stderr use
ERRORS = "tclose-ascii"

#: what a symbol the stream's code page lacks is written as
ASCII_FALLBACK = {
    "ε": "eps",
    "δ": "delta",
    "Δ": "Delta",
    "γ": "gamma",
    "μ": "mu",
    "Σ": "sum",
    "⌊": "floor(",
    "⌋": ")",
    "⌈": "ceil(",
    "⌉": ")",
    "∈": " in ",
    "∪": " u ",
    "∝": "~",
    "≡": "==",
    "⇒": "=>",
    "⇔": "<=>",
    "↔": "<->",
    "≥": ">=",
    "≤": "<=",
    "≠": "!=",
    "≈": "~",
    "∞": "inf",
    "−": "-",
    "–": "-",
    "—": "-",
    "…": "...",
    "×": "x",
    "·": ".",
    "→": "->",
    "←": "<-",
    "√": "sqrt",
    "±": "+/-",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
}


def _ascii(char: str) -> str:
    """An ASCII stand-in for one character: a known symbol, the letter without its accent, ?."""
    if char in ASCII_FALLBACK:
        return ASCII_FALLBACK[char]
    plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
    return plain or "?"


def _ascii_fallback(err: UnicodeError) -> tuple[str, int]:
    if not isinstance(err, UnicodeEncodeError):
        raise err
    return "".join(_ascii(c) for c in err.object[err.start : err.end]), err.end


codecs.register_error(ERRORS, _ascii_fallback)


def make_streams_safe() -> None:
    """Let stdout and stderr write any text in their own encoding (see the module docstring).

    Streams that are missing (a windowed program has none) or are not text files of
    Python's own (a test's capture, an IDE's console) are left as they are.
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # closed, or not reconfigurable
                reconfigure(errors=ERRORS)


def can_encode(text: str, stream: TextIO | None = None) -> bool:
    """True when ``stream`` (stdout by default) can write ``text`` without replacing any."""
    stream = sys.stdout if stream is None else stream
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    except LookupError:
        return True
    return True


def json_text(payload: Any, **options: Any) -> str:
    """``payload`` as indented JSON for stdout: readable where it can be, exact everywhere.

    Non-ASCII characters are written as themselves when stdout can encode them, and as
    ``\\u`` escapes otherwise, never replaced.
    """
    text = json.dumps(payload, indent=2, ensure_ascii=False, **options)
    return text if can_encode(text) else json.dumps(payload, indent=2, ensure_ascii=True, **options)
