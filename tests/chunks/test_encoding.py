"""Any encoding loads: detected per file section, undecodable bytes shown as \\xNN."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from segmint_core.chunks import ChunkService
from tests.chunks.builders import new_file, write_diff

FRENCH = "Voilà: un café crème, déjà brûlé à Noël, façon garçon."


def chunk_text(tmp_path: Path, data: bytes, **kw) -> tuple[str, dict]:
    path = write_diff(tmp_path, data)
    service = ChunkService()
    loaded = service.load_diff(path, **kw).data
    text = "".join(service.get_chunk(path, n, include_context=False).text for n in range(1, loaded["chunks"] + 1))
    text.encode("utf-8")  # always valid on the wire
    return text, loaded["encoding"]


def test_utf8_stays_as_it_is(tmp_path: Path) -> None:
    text, enc = chunk_text(tmp_path, new_file("é.txt", 2, "naïve ✓").encode())
    assert "+naïve ✓ 1" in text
    assert enc == {
        "encoding": "utf-8",
        "recoded_sections": {},
        "sections_with_undecodable_bytes": 0,
        "compressed": None,
    }


def test_a_latin1_section_is_re_encoded_beside_utf8_ones(tmp_path: Path) -> None:
    data = (
        new_file("utf8.txt", 1, "ünïcödé").encode()
        + new_file("legacy.txt", 1, FRENCH).encode("latin-1")
        + new_file("ascii.txt", 1).encode()
    )
    text, enc = chunk_text(tmp_path, data)
    assert "+ünïcödé 1" in text and f"+{FRENCH} 1" in text
    assert enc["recoded_sections"] == {"cp1252": 1}
    assert enc["sections_with_undecodable_bytes"] == 0


def test_a_cp1252_file_reads_its_smart_quotes(tmp_path: Path) -> None:
    line = "“Quoted” — price: €5"
    text, enc = chunk_text(tmp_path, new_file("q.txt", 3, line).encode("cp1252"))
    assert f"+{line} 2" in text
    assert enc["recoded_sections"] == {"cp1252": 1}


@pytest.mark.parametrize(
    "line, codec",
    [
        ("Привет, мир! Это русский текст в старой кодировке.", "cp1251"),
        ("こんにちは世界。これは日本語のテキストです。", "cp932"),
    ],
)
def test_non_latin_legacy_code_pages(tmp_path: Path, line: str, codec: str) -> None:
    text, enc = chunk_text(tmp_path, new_file("t.txt", 4, line).encode(codec))
    assert f"+{line} 3" in text
    assert list(enc["recoded_sections"]) == [codec]


@pytest.mark.parametrize(
    "codec, bom",
    [
        ("utf-16-le", codecs.BOM_UTF16_LE),
        ("utf-16-be", codecs.BOM_UTF16_BE),
        ("utf-32-le", codecs.BOM_UTF32_LE),
        ("utf-16-le", b""),
        ("utf-16-be", b""),
    ],
)
def test_utf16_and_utf32_with_or_without_bom(tmp_path: Path, codec: str, bom: bytes) -> None:
    diff = new_file("wide.txt", 2, "ωide ✓")
    text, enc = chunk_text(tmp_path, bom + diff.encode(codec))
    assert text == diff
    assert enc["encoding"] == codec


def test_a_utf8_bom_is_dropped(tmp_path: Path) -> None:
    diff = new_file("a.txt", 1)
    text, enc = chunk_text(tmp_path, codecs.BOM_UTF8 + diff.encode())
    assert text == diff and enc["encoding"] == "utf-8"


def test_undecodable_bytes_are_shown_not_dropped(tmp_path: Path) -> None:
    # UTF-8 text with one stray byte (kept), and binary-looking junk that no code page explains.
    junk = bytes([0x25, 0xE2, 0xE3, 0xCF, 0xD3, 0x0D, 0x01, 0x02, 0x90, 0xFF]) * 4
    data = new_file("mostly.txt", 1, "ünïcödé and ✓ and ❤").encode().replace(b"1\n", b"\xff 1\n") + new_file(
        "junk.ai", 1
    ).encode().replace(b"line 1", junk)
    path = write_diff(tmp_path, data)
    service = ChunkService()
    loaded = service.load_diff(path).data
    assert loaded["encoding"]["sections_with_undecodable_bytes"] == 2
    assert "undecodable bytes shown as \\xNN" in service.load_diff(path).text
    text = service.get_chunk(path, 1).text
    assert "+ünïcödé and ✓ and ❤ \\xff 1" in text
    assert "%\\xe2\\xe3\\xcf\\xd3\r\x01\x02\\x90\\xff" in text
    json.dumps(service.get_chunk(path, 1, format="annotated").data, ensure_ascii=False).encode("utf-8")


def test_crlf_line_ends_load(tmp_path: Path) -> None:
    diff = new_file("win.txt", 3).replace("\n", "\r\n")
    path = write_diff(tmp_path, diff)
    service = ChunkService()
    listing = service.list_chunks(path).data
    assert listing["chunks"][0]["files"] == ["win.txt"]
    assert listing["total_lines"] == 9
    assert service.get_chunk(path, 1, include_context=False).text == diff  # lossless, CRs kept


def test_many_legacy_sections_settle_on_one_code_page(tmp_path: Path) -> None:
    junk = bytes([0x25, 0xE2, 0xE3, 0xCF, 0xD3, 0x0D, 0x01, 0x02, 0x90, 0xFF]) * 4
    data = b"".join(new_file(f"f{k}.txt", 1, FRENCH).encode("latin-1") for k in range(20))
    data += new_file("junk.ai", 1).encode().replace(b"line 1", junk)
    text, enc = chunk_text(tmp_path, data)
    assert enc["recoded_sections"] == {"cp1252": 20}
    assert enc["sections_with_undecodable_bytes"] == 1
    assert text.count(f"+{FRENCH} 1") == 20
