#!/usr/bin/env python3
"""Writes the gzip plugin's interoperability fixtures to Tests/HTTPPipelineGzipTests/Fixtures.

Every compressed fixture comes from an encoder other than ours: Python's gzip and zlib modules,
GNU gzip, pigz and zopfli (installed by Scripts/bootstrap.sh). Headers with FEXTRA, FCOMMENT and
FHCRC, which none of those tools write, are assembled here around zlib's raw deflate output.
The output is deterministic (fixed modification times), so running it again changes nothing.

    python3 Scripts/make-gzip-fixtures.py
"""
import gzip
import io
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "HTTPPipelineGzipTests", "Fixtures")

FTEXT, FHCRC, FEXTRA, FNAME, FCOMMENT = 0x01, 0x02, 0x04, 0x08, 0x10


def sample_json() -> bytes:
    """About 4 KB of API-like JSON, the same every time."""
    books = []
    for i in range(24):
        books.append(
            '{"id":%d,"title":"Book number %d","author":{"id":%d,"name":"Author %d"},'
            '"tags":["fiction","series-%d"],"price":%d.%02d,"available":%s}'
            % (i, i, 100 + i % 7, i % 7, i % 3, 10 + i, (i * 37) % 100, "true" if i % 2 else "false")
        )
    return ('{"page":1,"perPage":24,"books":[' + ",".join(books) + "]}\n").encode()


SECOND = b"second member: plain text after the first gzip member\n"


def raw_deflate(data: bytes, level: int = 9) -> bytes:
    compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def crafted_member(data: bytes, flags: int, extra: bytes = b"", name: bytes = b"", comment: bytes = b"") -> bytes:
    """One gzip member with the given header flags, around zlib's raw deflate of `data`."""
    header = bytearray(b"\x1f\x8b\x08")
    header.append(flags)
    header += struct.pack("<I", 0)  # MTIME
    header += b"\x02\x03"  # XFL (best compression), OS (Unix)
    if flags & FEXTRA:
        header += struct.pack("<H", len(extra)) + extra
    if flags & FNAME:
        header += name + b"\x00"
    if flags & FCOMMENT:
        header += comment + b"\x00"
    if flags & FHCRC:
        header += struct.pack("<H", zlib.crc32(bytes(header)) & 0xFFFF)
    trailer = struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)
    return bytes(header) + raw_deflate(data) + trailer


def run(tool: list, path: str) -> bytes:
    if shutil.which(tool[0]) is None:
        sys.exit(f"{tool[0]} is not installed; run Scripts/bootstrap.sh")
    return subprocess.run(tool + [path], check=True, capture_output=True).stdout


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    data = sample_json()
    files = {"sample.json": data, "second.txt": SECOND}

    files["python-gzip.json.gz"] = gzip.compress(data, compresslevel=9, mtime=0)
    named = io.BytesIO()
    with gzip.GzipFile(filename="sample.json", mode="wb", fileobj=named, mtime=0) as writer:
        writer.write(data)
    files["python-gzip-fname.json.gz"] = named.getvalue()
    files["python-zlib.json.zz"] = zlib.compress(data, 9)
    files["python-raw-deflate.json.deflate"] = raw_deflate(data)

    subfield = b"AP" + struct.pack("<H", 4) + b"\x01\x02\x03\x04"
    files["crafted-fextra.json.gz"] = crafted_member(data, FEXTRA, extra=subfield)
    files["crafted-fcomment.json.gz"] = crafted_member(data, FCOMMENT, comment=b"a comment, Latin-1: caf\xe9")
    files["crafted-fhcrc.json.gz"] = crafted_member(data, FHCRC)
    files["crafted-all-flags.json.gz"] = crafted_member(
        data, FTEXT | FHCRC | FEXTRA | FNAME | FCOMMENT, extra=subfield, name=b"sample.json", comment=b"every flag"
    )

    with tempfile.TemporaryDirectory() as work:
        for name in ("sample.json", "second.txt"):
            path = os.path.join(work, name)
            with open(path, "wb") as handle:
                handle.write(files[name])
            os.utime(path, (1_700_000_000, 1_700_000_000))
        sample = os.path.join(work, "sample.json")
        # GNU gzip stores the file name (FNAME) and modification time when compressing a file.
        files["gnu-gzip-name.json.gz"] = run(["gzip", "-9", "-N", "-c"], sample)
        files["pigz.json.gz"] = run(["pigz", "-9", "-c"], sample)
        files["pigz-zlib.json.zz"] = run(["pigz", "-9", "-z", "-c"], sample)
        files["zopfli.json.gz"] = run(["zopfli", "-c"], sample)
        files["zopfli-zlib.json.zz"] = run(["zopfli", "--zlib", "-c"], sample)
        files["zopfli-deflate.json.deflate"] = run(["zopfli", "--deflate", "-c"], sample)
        second = run(["gzip", "-9", "-n", "-c"], os.path.join(work, "second.txt"))

    # Two members by concatenation (as `cat a.gz b.gz`): decodes to sample.json + second.txt.
    files["multi-member.gz"] = files["python-gzip.json.gz"] + second

    assert files["gnu-gzip-name.json.gz"][3] & FNAME, "GNU gzip did not store the file name"
    for name, content in sorted(files.items()):
        with open(os.path.join(OUT, name), "wb") as handle:
            handle.write(content)
        print(f"{len(content):6d}  {name}")


if __name__ == "__main__":
    main()
