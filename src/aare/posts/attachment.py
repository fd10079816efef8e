"""The attachment of a post: a game, compressed, as lines of base64 with a checksum over every character.

    aare-game v1 lzma sha256=<hex> chars=<n>
    <base64 lines of at most 76 characters, no spaces>
    aare-game end

The checksum is the SHA-256 of the payload's characters (the lines joined): a changed, added or dropped
character anywhere is refused before anything is decoded. It proves integrity in transit, not authorship:
someone who edits the game can compute a new checksum, which is why the game inside is checked again.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import lzma
import re
from typing import Any

from aare.errors import MalformedInput

BEGIN = "aare-game v1 lzma"
END = "aare-game end"
WIDTH = 76
_HEADER = re.compile(r"aare-game v1 lzma sha256=([0-9a-f]{64}) chars=(\d+)$")


class TamperedPost(MalformedInput):
    """A post whose attachment, text or game does not check out."""


def encode(data: Any) -> list[str]:
    """`data` (JSON) as the attachment's lines, header and end line included."""
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()
    payload = base64.b64encode(lzma.compress(raw, preset=9 | lzma.PRESET_EXTREME)).decode("ascii")
    digest = hashlib.sha256(payload.encode("ascii")).hexdigest()
    lines = [payload[i : i + WIDTH] for i in range(0, len(payload), WIDTH)]
    return [f"{BEGIN} sha256={digest} chars={len(payload)}", *lines, END]


def find(lines: list[str]) -> tuple[int, int]:
    """The indexes of the header and end lines of the attachment in a post's lines."""
    starts = [i for i, line in enumerate(lines) if line.strip().startswith(BEGIN)]
    if not starts:
        raise TamperedPost("no aare-game attachment found in the post (its first line starts 'aare-game v1')")
    if len(starts) > 1:
        raise TamperedPost(f"the post holds {len(starts)} attachments: paste one post at a time")
    start = starts[0]
    end = next((i for i in range(start + 1, len(lines)) if lines[i].strip() == END), None)
    if end is None:
        raise TamperedPost(f"the attachment has no end line '{END}': it was cut short")
    return start, end


def decode(lines: list[str]) -> Any:
    """The JSON inside the attachment of a post's lines; TamperedPost when one character is off."""
    start, end = find(lines)
    header = _HEADER.match(lines[start].strip())
    if header is None:
        raise TamperedPost(f"the attachment's header line is damaged: {lines[start].strip()[:100]!r}")
    body = [line.strip() for line in lines[start + 1 : end]]
    payload = "".join(body)
    bad = next((n for n, line in enumerate(body, start + 2) if not re.fullmatch(r"[A-Za-z0-9+/=]*", line)), None)
    if bad is not None:
        raise TamperedPost(f"line {bad} of the post: a character that base64 never uses")
    if len(payload) != int(header.group(2)):
        raise TamperedPost(f"the attachment has {len(payload)} characters, its header says {header.group(2)}: "
                           "lines were lost or added")
    if hashlib.sha256(payload.encode("ascii")).hexdigest() != header.group(1):
        raise TamperedPost("the attachment's checksum does not match its characters: at least one character was "
                           "changed since it was written")
    try:
        return json.loads(lzma.decompress(base64.b64decode(payload, validate=True)))
    except (binascii.Error, lzma.LZMAError, ValueError) as exc:
        raise TamperedPost(f"the attachment does not decode: {exc}") from None
