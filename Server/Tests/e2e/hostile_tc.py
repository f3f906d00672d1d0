"""Hostile TC strings, field by field: the security review's encoder (2026-11-26, appendix
"tcenc.py"), for the hostile-load test, the web TCData benchmark and the fuzzer's seeds.
Tests/ConsentKitTests/Support/HostileTCString.swift is its Swift port.

tc() with no arguments is the review's 637-character string: vendor consents and legitimate
interests 1-65,535, 64 restrictions (purpose ids 0-63, type 1) of vendors 1-65,535, disclosed
vendors 1-65,535, created now."""
from __future__ import annotations

import base64
import time


class Bits:
    def __init__(self):
        self.b = []

    def w(self, v, n):
        self.b += [(v >> (n - 1 - i)) & 1 for i in range(n)]

    def letters(self, s):
        for c in s:
            self.w(ord(c) - 65, 6)

    def encode(self):
        b = self.b + [0] * ((-len(self.b)) % 8)
        data = bytes(int(''.join(map(str, b[i:i + 8])), 2) for i in range(0, len(b), 8))
        return base64.urlsafe_b64encode(data).decode().rstrip('=')


def ranges(bits, rs):
    bits.w(len(rs), 12)
    for a, b in rs:
        if a == b:
            bits.w(0, 1); bits.w(a, 16)
        else:
            bits.w(1, 1); bits.w(a, 16); bits.w(b, 16)


def vendor_section(bits, rs):
    bits.w(max(b for a, b in rs) if rs else 0, 16); bits.w(1, 1); ranges(bits, rs)


def tc(vendors=((1, 65535),), restrictions=None, disclosed=((1, 65535),), purposes=(1 << 24) - 1,
       cmp=4095, vlv=45, policy=4, lang='EN', created=None):
    if restrictions is None:
        restrictions = [(p, 1, [(1, 65535)]) for p in range(64)]
    ds = int((created or time.time()) * 10)
    c = Bits()
    c.w(2, 6); c.w(ds, 36); c.w(ds, 36); c.w(cmp, 12); c.w(1, 12); c.w(1, 6); c.letters(lang); c.w(vlv, 12); c.w(policy, 6)
    c.w(1, 1); c.w(0, 1); c.w(0, 12); c.w(purposes, 24); c.w(0, 24); c.w(0, 1); c.letters('AA')
    vendor_section(c, vendors); vendor_section(c, vendors)
    c.w(len(restrictions), 12)
    for p, t, rs in restrictions:
        c.w(p, 6); c.w(t, 2); ranges(c, rs)
    s = c.encode()
    if disclosed is not None:
        d = Bits(); d.w(1, 3); vendor_section(d, disclosed); s += '.' + d.encode()
    return s


def every_form() -> str:
    """Worse than the review's: all 64 purpose ids under every restriction type, vendors as single
    ids and ranges up to 65,535."""
    vendors = [(1, 1), (3, 900), (65535, 65535)]
    return tc(vendors=vendors, restrictions=[(p, t, [(1, 1), (2, 65535)]) for p in range(64) for t in range(4)])


def old_worst() -> str:
    """The 16,356-character string of the old hole: 1,845 restrictions of vendors 1-65,535."""
    return tc(restrictions=[(i % 64, 1, [(1, 65535)]) for i in range(1845)], disclosed=None)


def small_tc() -> str:
    """A short valid string of the same fields: ten vendors, one restriction of purpose 2."""
    return tc(vendors=[(1, 10)], restrictions=[(2, 1, [(1, 10)])], disclosed=[(1, 10)], purposes=0b111)
