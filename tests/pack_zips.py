"""Pack zips for the tests: written from a dict of members, then damaged the ways a download or a hand-made
archive goes wrong (a flipped byte in a member's compressed data, a header that understates a member's size)."""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

CENTRAL_HEADER = b"PK\x01\x02"


def zip_of(entries: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip holding ``entries`` (member name -> bytes), in that order."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def folder_zip(folder: Path) -> bytes:
    """A zip of every file under ``folder``, at the zip's root."""
    return zip_of({p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()})


def with_flipped_byte(data: bytes, member: str) -> bytes:
    """``data`` with one byte of ``member``'s compressed data inverted (its headers left intact)."""
    info = zipfile.ZipFile(io.BytesIO(data)).getinfo(member)
    name_length, extra_length = struct.unpack_from("<HH", data, info.header_offset + 26)
    start = info.header_offset + 30 + name_length + extra_length
    damaged = bytearray(data)
    damaged[start] ^= 0xFF  # the first block header: zlib stops at once
    return bytes(damaged)


def with_understated_size(data: bytes, member: str, by: int = 10) -> bytes:
    """``data`` whose local and central headers say ``member`` holds ``by`` bytes fewer than it does."""
    info = zipfile.ZipFile(io.BytesIO(data)).getinfo(member)
    damaged = bytearray(data)
    struct.pack_into("<I", damaged, info.header_offset + 22, info.file_size - by)
    position = data.find(CENTRAL_HEADER)
    while position >= 0:
        name_length = struct.unpack_from("<H", data, position + 28)[0]
        if data[position + 46:position + 46 + name_length].decode("utf-8") == member:
            struct.pack_into("<I", damaged, position + 24, info.file_size - by)
        position = data.find(CENTRAL_HEADER, position + 4)
    assert bytes(damaged) != data, member
    return bytes(damaged)
