"""JSON files of the project (game files, ladders): read with errors that name the file, written atomically."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from aare.errors import DataFileError


def read_json(path: Path) -> Any:
    """The decoded content of `path`; a missing, unreadable or malformed file raises DataFileError."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataFileError(str(path), "<file>", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(str(path), "<file>", str(exc)) from None
    except json.JSONDecodeError as exc:
        raise DataFileError(str(path), f"line {exc.lineno}", f"invalid JSON: {exc.msg}") from None


def write_json_atomic(path: Path, data: Any, trailing_newline: bool = False) -> None:
    """Write `data` as JSON: a temporary file in the same folder, flushed to disk, then renamed over `path`."""
    text = json.dumps(data, indent=1, ensure_ascii=False) + ("\n" if trailing_newline else "")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.resolve().parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
