"""Hygiene: a read-only pass over every memory a person has (the store, the journals, the
hosts' own memory files) that finds what has rotted — duplicates, contradictions, dead
references, stored secrets, host files longer than their host loads, stale entries — and
hands each fix over as a proposal to accept or reject (issue 35). Nothing here writes a
memory: :mod:`.propose` only files proposals through ``engine/review``.
"""
