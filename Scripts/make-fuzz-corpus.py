#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora to Fuzz/Corpus/<fuzzer>/.

gzip: small bodies compressed by Python's gzip and zlib modules, GNU gzip and pigz (installed by
Scripts/bootstrap.sh), headers with every optional field, several members, zero padding, a
preset dictionary, a small bomb, and cut-short and corrupted copies. retry-after and redaction:
hand-written values, one per file. Deterministic: running it again changes nothing.

    python3 Scripts/make-fuzz-corpus.py
"""
import gzip
import os
import shutil
import struct
import subprocess
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")

TEXT = b'{"books":[{"id":1,"title":"Dune","tags":["sf","classic"]},{"id":2,"title":"Emma"}]}\n'
LINES = b"".join(b"line %d of a small log\n" % i for i in range(40))


def raw_deflate(data: bytes, level: int = 6) -> bytes:
    compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def gzip_member(data: bytes, flags: int = 0, name: bytes = b"", comment: bytes = b"", extra: bytes = b"") -> bytes:
    header = struct.pack("<BBBBIBB", 0x1F, 0x8B, 8, flags, 0, 0, 3)
    if flags & 0x04:
        header += struct.pack("<H", len(extra)) + extra
    if flags & 0x08:
        header += name + b"\0"
    if flags & 0x10:
        header += comment + b"\0"
    if flags & 0x02:
        header += struct.pack("<H", zlib.crc32(header) & 0xFFFF)
    return header + raw_deflate(data) + struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)


def tool(command: list, data: bytes) -> bytes:
    return subprocess.run(command, input=data, stdout=subprocess.PIPE, check=True).stdout


def gzip_seeds() -> dict:
    seeds = {
        "python-gzip": gzip.compress(TEXT, mtime=0),
        "python-gzip-empty": gzip.compress(b"", mtime=0),
        "gnu-gzip": tool(["gzip", "-n", "-9", "-c"], LINES),
        "pigz": tool(["pigz", "-n", "-c"], TEXT),
        "pigz-zlib": tool(["pigz", "-z", "-c"], LINES),
        "all-header-fields": gzip_member(TEXT, 0x02 | 0x04 | 0x08 | 0x10, b"books.json", b"a comment", b"AB\x02\x00xy"),
        "two-members": gzip_member(TEXT) + gzip_member(b"second\n", 0x08, b"second.txt"),
        "zero-padded": gzip_member(TEXT) + b"\0" * 8,
        "trailing-garbage": gzip_member(b"x") + b"junk",
        "zlib": zlib.compress(TEXT),
        "zlib-stored": zlib.compress(TEXT, 0),
        "raw-deflate": raw_deflate(LINES, 9),
        "raw-deflate-looks-zlib": b"\x78\x9c" + raw_deflate(b"")[:0] + raw_deflate(b"xx"),
        "zlib-preset-dictionary": (lambda c: c.compress(TEXT) + c.flush())(
            zlib.compressobj(6, zlib.DEFLATED, 15, 8, zlib.Z_DEFAULT_STRATEGY, b"books title")
        ),
        "bomb-zeros": gzip_member(b"\0" * 300_000),
        "bomb-zlib": zlib.compress(b"a" * 100_000, 9),
    }
    whole = seeds["python-gzip"]
    seeds["cut-in-header"] = whole[:7]
    seeds["cut-in-data"] = whole[: len(whole) // 2]
    seeds["cut-in-trailer"] = whole[:-3]
    flipped = bytearray(whole)
    flipped[len(whole) // 2] ^= 0x10
    seeds["corrupt-data"] = bytes(flipped)
    bad_crc = bytearray(whole)
    bad_crc[-6] ^= 0xFF
    seeds["bad-crc"] = bytes(bad_crc)
    seeds["zlib-cut"] = seeds["zlib"][:-2]
    return seeds


RETRY_AFTER = {
    "seconds": "120",
    "zero": "0",
    "spaces": "  30 ",
    "huge": "99999999999999999999999",
    "limit": "315360000",
    "negative": "-5",
    "fraction": "1.5",
    "imf-fixdate": "Sun, 06 Nov 1994 08:49:37 GMT\nSun, 06 Nov 1994 08:49:00 GMT",
    "rfc850": "Sunday, 06-Nov-94 08:49:37 GMT\nSun, 06 Nov 1994 08:00:00 GMT",
    "asctime": "Sun Nov  6 08:49:37 1994",
    "far-future": "Fri, 31 Dec 9999 23:59:60 GMT\nMon, 01 Jan 0001 00:00:00 GMT",
    "past": "Thu, 01 Jan 1970 00:00:00 GMT",
    "bad-month": "Sun, 06 Foo 1994 08:49:37 GMT",
    "bad-time": "Sun, 06 Nov 1994 25:61:99 GMT",
    "empty": "",
    "garbage": "soon, please",
    "unicode": "\u0661\u0662\u0663 seconds",
    "date-only": "\nSun, 06 Nov 1994 08:49:37 GMT",
}

REDACTION = {
    "url-query": "https://api.example.com/v1/books?access_token=abc123&page=2#frag",
    "url-userinfo": "https://user:pa55word@example.com:8443/path;jsessionid=XYZ?x=1",
    "url-encoded-redirect": "/login?next=https%3A%2F%2Fx.example%2Fcb%3Fcode%3Dsecret%26state%3D1",
    "url-fragment": "https://example.com/cb#access_token=tok&token_type=bearer&expires_in=3600",
    "url-port-password": "https://u:pa/ss@host/p?q",
    "url-ipv6": "http://[::1]:8080/a?key=1",
    "header-bearer": "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig",
    "header-basic": "Basic dXNlcjpwYXNzd29yZA==",
    "json-object": '{"user":{"name":"ann","password":"hunter2"},"items":[1,2,{"api_key":"k"}],"n":1.5e3}',
    "json-array": '[{"token":"t"},{"refresh_token":{"a":1}},"https://x.example/?sig=abc",null,true]',
    "json-deep": "[" * 130 + "]" * 130,
    "json-escapes": '{"pass\\u0077ord":"x","note":"token=abc \\"quoted\\""}',
    "form": "grant_type=password&username=ann&password=hunter2&client_secret=s3cr3t&scope=a+b",
    "form-brackets": "user[password]=x&user%5Bname%5D=ann&key[]=1&%2561ccess_token=y",
    "text-error": 'Error Domain=NSURLErrorDomain Code=-1001 "timed out" UserInfo={NSErrorFailingURLKey=https://a.example/?token=t}',
    "text-pairs": "token=abc Bearer xyz\npassword: hunter2\n\"secret\": \"s\"\nauthorization=Basic QWxhZGRpbjpvcGVu",
    "text-userinfo": "connect to admin:letmein@db.internal:5432 failed",
    "mixed-unicode": "caf\u00e9 \u2603 token=\u00e9t\u00e9 https://\u00fc:\u00f6@h/?\u00e4=1",
}


def write(folder: str, seeds: dict) -> None:
    path = os.path.join(CORPUS, folder)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    for name, data in sorted(seeds.items()):
        with open(os.path.join(path, name), "wb") as handle:
            handle.write(data if isinstance(data, bytes) else data.encode())


write("gzip", gzip_seeds())
write("retry-after", RETRY_AFTER)
write("redaction", REDACTION)
print("wrote", CORPUS)
