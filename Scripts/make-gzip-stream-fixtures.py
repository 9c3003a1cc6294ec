#!/usr/bin/env python3
"""Writes the larger fixtures of the gzip plugin's streaming tests to Tests/HTTPPipelineGzipTests/Fixtures.

Made by Python's gzip and zlib modules, not by our encoder: about 512 KB of API-like JSON (more
than two of the streaming decoder's 256 KiB output steps) as
- stream-members.json.gz: three gzip members one after the other, the first from gzip.compress,
  the second with every header flag (FEXTRA, FNAME, FCOMMENT, FHCRC) and a long file name and
  comment, the third from GzipFile with a file name;
- stream.json.zz: one zlib stream.
The output is deterministic, so running it again changes nothing. The streaming tests compare
what the streaming decoder yields with what the buffered decoder decodes from the same bytes.

    python3 Scripts/make-gzip-stream-fixtures.py
"""
import gzip
import io
import os
import random
import struct
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "HTTPPipelineGzipTests", "Fixtures")

FTEXT, FHCRC, FEXTRA, FNAME, FCOMMENT = 0x01, 0x02, 0x04, 0x08, 0x10


def large_json(size: int = 512 * 1024) -> bytes:
    """About `size` bytes of API-like JSON, the same every time."""
    rng = random.Random(14)
    cities = ["Lyon", "Osaka", "Porto", "Austin", "Tartu", "Leeds", "Quito", "Perth"]
    parts = []
    total = 0
    index = 0
    while total < size:
        part = (
            '{"id":%d,"status":"%s","customer":{"id":%d,"city":"%s"},"items":[{"sku":"SKU-%d","qty":%d}],'
            '"note":"%s"}'
            % (
                index,
                rng.choice(["pending", "paid", "shipped"]),
                rng.randrange(50_000),
                rng.choice(cities),
                rng.randrange(1_000, 10_000),
                rng.randrange(1, 5),
                "".join(rng.choice("abcdefghij ") for _ in range(rng.randrange(0, 24))),
            )
        )
        parts.append(part)
        total += len(part) + 1
        index += 1
    return ('{"orders":[' + ",".join(parts) + "]}\n").encode()


def crafted_member(data: bytes) -> bytes:
    """One gzip member with every header flag, around zlib's raw deflate of `data`."""
    header = bytearray(b"\x1f\x8b\x08")
    header.append(FTEXT | FHCRC | FEXTRA | FNAME | FCOMMENT)
    header += struct.pack("<I", 0) + b"\x00\x03"
    extra = b"AP" + struct.pack("<H", 600) + bytes(range(256)) * 2 + bytes(88)
    header += struct.pack("<H", len(extra)) + extra
    header += b"orders-" + b"n" * 700 + b".json\x00"
    header += b"a comment " * 90 + b"\x00"
    header += struct.pack("<H", zlib.crc32(bytes(header)) & 0xFFFF)
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = compressor.compress(data) + compressor.flush()
    return bytes(header) + body + struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)


def main() -> None:
    data = large_json()
    third = len(data) // 3
    first, second, rest = data[:third], data[third : 2 * third], data[2 * third :]
    named = io.BytesIO()
    with gzip.GzipFile(filename="orders-3.json", mode="wb", fileobj=named, mtime=0) as writer:
        writer.write(rest)
    files = {
        "stream-members.json.gz": gzip.compress(first, compresslevel=6, mtime=0) + crafted_member(second) + named.getvalue(),
        "stream.json.zz": zlib.compress(data, 6),
    }
    for name, content in sorted(files.items()):
        with open(os.path.join(OUT, name), "wb") as handle:
            handle.write(content)
        print(f"{len(content):7d}  {name}  (decodes to {len(data)} bytes)")


if __name__ == "__main__":
    main()
