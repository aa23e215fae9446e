"""Reading a diff file of any encoding as UTF-8 for the parser.

A diff holds each file in that file's own encoding, so the check is per file
section (the text from one ``diff`` line to the next):

* a BOM, or the NUL pattern of UTF-16/32 text, decides for the whole file;
* other NUL-laden bytes are not text: ``DiffFileError``;
* a section that is valid UTF-8 stays as it is (nearly every section);
* a section that is not: binary-looking junk, or UTF-8 with a few stray bytes,
  stays too, its undecodable bytes shown as ``\\xNN`` on the wire; legacy text
  is re-encoded from the code page detected for it.

Detection on a few lines is guesswork (charset-normalizer names cp1250 or
cp437 for plain French), so it only decides between CJK multi-byte code pages,
non-Latin single-byte ones, and the rest, which is read as cp1252: the legacy
encoding source trees hold most often.
"""

from __future__ import annotations

import codecs
import re
from collections import Counter
from dataclasses import dataclass, field

from segmint_core.chunks.errors import DiffFileError

UTF8 = "utf-8"

_BOMS = (  # UTF-32 first: its little-endian BOM begins with UTF-16's.
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

SNIFF_BYTES = 1 << 16
DECODE_BLOCK = 1 << 14  # small strings stay in cache: 16 KiB is the fastest size here
# Sections detected one by one; later ones reuse the most frequent verdict.
MAX_DETECTIONS = 16

# C0 controls other than tab, newlines, form feed and escape: rare in text.
_CONTROL = bytes(b for b in range(32) if b not in b"\t\n\v\f\r\x1b")
_NOT_CONTROL = bytes(b for b in range(256) if b not in _CONTROL)
_HIGH = bytes(range(128, 256))
_HIGH_BYTE = re.compile(rb"[\x80-\xff]")
_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")

_NOT_CANDIDATES = ["utf_7", "utf_16", "utf_16_le", "utf_16_be", "utf_32", "utf_32_le", "utf_32_be"]
_MULTI_BYTE = {
    "cp932",
    "shift_jis",
    "shift_jis_2004",
    "shift_jisx0213",
    "euc_jp",
    "euc_jis_2004",
    "euc_jisx0213",
    "iso2022_jp",
    "gb2312",
    "gbk",
    "gb18030",
    "hz",
    "big5",
    "big5hkscs",
    "cp950",
    "cp949",
    "euc_kr",
    "johab",
}
_NON_LATIN = {
    "cp1251",
    "koi8_r",
    "koi8_u",
    "cp866",
    "cp855",
    "mac_cyrillic",
    "iso8859_5",
    "kz1048",
    "ptcp154",
    "cp1253",
    "iso8859_7",
    "mac_greek",
    "cp737",
    "cp869",
    "cp1255",
    "iso8859_8",
    "cp862",
    "cp424",
    "cp1256",
    "iso8859_6",
    "cp720",
    "cp864",
    "mac_arabic",
    "cp874",
    "tis_620",
    "iso8859_11",
}
_WESTERN = "cp1252"


@dataclass
class Decoded:
    """The diff as UTF-8 bytes (stray undecodable bytes left in place) and how it was read."""

    data: bytes
    encoding: str = UTF8
    recoded: Counter = field(default_factory=Counter)  # legacy code page -> sections re-encoded
    undecodable_sections: int = 0

    def report(self) -> dict:
        return {
            "encoding": self.encoding,
            "recoded_sections": dict(sorted(self.recoded.items())),
            "sections_with_undecodable_bytes": self.undecodable_sections,
        }


def decode_diff(raw: bytes, path: str) -> Decoded:
    for bom, codec in _BOMS:
        if raw.startswith(bom):
            return _whole_file(raw[len(bom) :], codec)
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
    if b"\0" in raw:
        wide = _wide_unicode(raw[:SNIFF_BYTES])
        if wide is not None:
            return _whole_file(raw, wide)
        if _looks_binary(raw[:SNIFF_BYTES], share=0.01):
            raise DiffFileError(
                f"{path} cannot be read as text in any encoding: it holds NUL bytes like a binary file, not a diff."
            )
    if raw.isascii():
        return Decoded(raw)
    return _by_section(raw)


def _whole_file(raw: bytes, codec: str) -> Decoded:
    text = raw.decode(codec, "backslashreplace")
    return Decoded(text.encode(UTF8), codec)


def _wide_unicode(sample: bytes) -> str | None:
    """UTF-16 or UTF-32 without a BOM, told by where the NUL bytes fall."""
    if len(sample) < 8:
        return None

    def nul_share(start: int, step: int) -> float:
        lane = sample[start::step]
        return lane.count(0) / max(len(lane), 1)

    for codec, lanes, other in (("utf-32-le", (1, 2, 3), 0), ("utf-32-be", (0, 1, 2), 3)):
        if all(nul_share(k, 4) > 0.9 for k in lanes) and nul_share(other, 4) < 0.1:
            return codec
    if nul_share(1, 2) > 0.4 and nul_share(0, 2) < 0.05:
        return "utf-16-le"
    if nul_share(0, 2) > 0.4 and nul_share(1, 2) < 0.05:
        return "utf-16-be"
    return None


def _looks_binary(sample: bytes, share: float) -> bool:
    controls = len(sample) - len(sample.translate(None, _CONTROL))
    return controls > share * max(len(sample), 1)


def _by_section(raw: bytes) -> Decoded:
    decoded = Decoded(raw)
    parts: list[bytes] = []
    done = 0
    verdicts: Counter = Counter()
    for start, end in _sections_not_utf8(raw):
        section = raw[start:end]
        settled = verdicts.most_common(1)[0][0] if sum(verdicts.values()) >= MAX_DETECTIONS else None
        codec = _legacy_codec(section, settled)
        if codec is not None:
            verdicts[codec] += 1
        text = _decode_as(section, codec) if codec is not None else None
        if text is None:
            decoded.undecodable_sections += 1
            continue
        parts += [raw[done:start], text.encode(UTF8)]
        done = end
        decoded.recoded[codec] += 1
    if parts:
        parts.append(raw[done:])
        decoded.data = b"".join(parts)
    return decoded


def _sections_not_utf8(raw: bytes) -> list[tuple[int, int]]:
    """Byte ranges of the ``diff`` sections that hold invalid UTF-8."""
    ranges = []
    view = memoryview(raw)
    pos, total = 0, len(raw)
    while (bad := _first_invalid_utf8(view, pos)) is not None:
        found = raw.rfind(b"\ndiff ", pos, bad)
        start = pos if found < 0 else found + 1
        end = raw.find(b"\ndiff ", bad)
        end = total if end < 0 else end + 1
        ranges.append((start, end))
        pos = end
    return ranges


def _first_invalid_utf8(view: memoryview, pos: int) -> int | None:
    # Block by block: decoding the whole input at once builds one huge string,
    # several times slower than these small ones.
    total = len(view)
    while pos < total:
        final = pos + DECODE_BLOCK >= total
        try:
            _, used = codecs.utf_8_decode(view[pos : pos + DECODE_BLOCK], "strict", final)
        except UnicodeDecodeError as exc:
            return pos + exc.start
        pos += used
    return None


def _legacy_codec(section: bytes, settled: str | None) -> str | None:
    """The code page of a legacy-encoded section, or None to keep it as UTF-8.
    ``settled`` is the code page found for most sections so far, once enough
    were detected: then it is taken without asking the detector again."""
    sample = _lines_with_high_bytes(section)
    if _looks_binary(sample, share=0.005) or _mostly_utf8(sample):
        return None
    if settled is not None:
        return settled
    from charset_normalizer import from_bytes  # only legacy input pays its import

    best = from_bytes(sample, cp_exclusion=_NOT_CANDIDATES).best()
    codec = best.encoding if best is not None else None
    if codec in _MULTI_BYTE or codec in _NON_LATIN:
        return codec
    return _WESTERN


def _lines_with_high_bytes(section: bytes) -> bytes:
    """Up to SNIFF_BYTES of the lines that hold non-ASCII bytes: what detection needs."""
    lines: list[bytes] = []
    size = 0
    pos = 0
    while size < SNIFF_BYTES and (m := _HIGH_BYTE.search(section, pos)):
        start = section.rfind(b"\n", 0, m.start()) + 1
        end = section.find(b"\n", m.end())
        end = len(section) if end < 0 else end
        lines.append(section[start:end])
        size += end - start + 1
        pos = end + 1
    return b"\n".join(lines)[:SNIFF_BYTES]


def _mostly_utf8(sample: bytes) -> bool:
    """UTF-8 with a few stray bytes: its valid sequences outnumber the bad bytes."""
    high = len(sample) - len(sample.translate(None, _HIGH))
    in_sequences = sum(len(m) for m in _UTF8_SEQUENCE.findall(sample))
    return in_sequences >= high - in_sequences


def _decode_as(section: bytes, codec: str) -> str | None:
    try:
        return section.decode(codec)
    except UnicodeDecodeError:
        if codec == _WESTERN:  # five bytes cp1252 leaves undefined: Latin-1 reads every byte
            return section.decode("latin-1")
        return None
