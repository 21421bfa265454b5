"""SHA-1 of a short name (a cache file's, a socket's) without loading OpenSSL.

``hashlib.sha1`` is OpenSSL's: importing ``hashlib`` loads ``_hashlib`` and libcrypto, ~2-3 ms
of a one-shot CLI search that hashes one path to name a file (the kept tokenizer, the warm
index owner's socket). CPython's own ``_sha1`` gives the same digest at no import cost; an
interpreter built without it falls back to ``hashlib``. Not for anything security-related:
these digests only name files.
"""

from __future__ import annotations


def sha1_hex(data: bytes) -> str:
    """The hex SHA-1 of ``data`` (as ``hashlib.sha1(data).hexdigest()``)."""
    try:
        from _sha1 import sha1  # type: ignore[import-not-found]  # CPython's own: no OpenSSL to load
    except ImportError:  # pragma: no cover - an interpreter built without it
        from hashlib import sha1
    return str(sha1(data).hexdigest())
