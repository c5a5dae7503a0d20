#!/usr/bin/env python3
"""pcapng_craft.py - pcapng files for the reader tests (pcapng_tests.sh).

  pcapng_craft.py swap IN OUT       IN (little-endian) rewritten big-endian
  pcapng_craft.py crafted BASE DIR  hostile and unusual variants of BASE
                                    (a little-endian pcapng from editcap or
                                    csc-gen) into DIR, one file per case
  pcapng_craft.py mutate IN DIR N SEED
                                    N copies of IN, each cut or with bytes
                                    overwritten at seeded random offsets

Only the blocks the test files hold are known to 'swap' (SHB, IDB, EPB,
SPB, ISB, NRB and their numeric options).
"""
import random
import struct
import sys

SHB, IDB, SPB, NRB, ISB, EPB, DSB = 0x0A0D0D0A, 1, 3, 4, 5, 6, 10


def blocks(data):
    """(type, body) of each block of a little-endian pcapng"""
    out, off = [], 0
    while off + 12 <= len(data):
        btype, blen = struct.unpack_from('<II', data, off)
        out.append((btype, data[off + 8:off + blen - 4]))
        off += blen
    return out


def block(btype, body, e='<'):
    body = body + b'\0' * (-len(body) % 4)
    n = len(body) + 12
    return struct.pack(e + 'II', btype, n) + body + struct.pack(e + 'I', n)


def opt(code, value, e='<'):
    return struct.pack(e + 'HH', code, len(value)) + value + b'\0' * (-len(value) % 4)


def split_options(raw):
    """[(code, value)] of an options area (little-endian), to opt_endofopt"""
    out, off = [], 0
    while off + 4 <= len(raw):
        code, n = struct.unpack_from('<HH', raw, off)
        if code == 0:
            break
        out.append((code, raw[off + 4:off + 4 + n]))
        off += 4 + n + (-n % 4)
    return out


# numeric options per block type: code -> struct format of the value
NUMERIC = {
    IDB: {8: 'Q', 9: 'B', 13: 'B', 14: 'q'},
    EPB: {2: 'I', 4: 'Q', 5: 'Q', 6: 'I'},
    ISB: {2: 'II', 3: 'II', 4: 'Q', 5: 'Q', 6: 'Q', 7: 'Q', 8: 'Q'},
}


def swap_options(btype, raw):
    out = b''
    for code, v in split_options(raw):
        fmt = NUMERIC.get(btype, {}).get(code)
        if fmt and len(v) == struct.calcsize('<' + fmt):
            v = struct.pack('>' + fmt, *struct.unpack('<' + fmt, v))
        out += opt(code, v, '>')
    return out + (opt(0, b'', '>') if out else b'')


def swap(data):
    out = b''
    for btype, body in blocks(data):
        if btype == SHB:
            magic, major, minor, slen = struct.unpack_from('<IHHq', body)
            nb = struct.pack('>IHHq', magic, major, minor, slen) + swap_options(SHB, body[16:])
        elif btype == IDB:
            lt, res, snap = struct.unpack_from('<HHI', body)
            nb = struct.pack('>HHI', lt, res, snap) + swap_options(IDB, body[8:])
        elif btype == EPB:
            ifid, hi, lo, cap, ln = struct.unpack_from('<IIIII', body)
            padded = cap + (-cap % 4)
            nb = (struct.pack('>IIIII', ifid, hi, lo, cap, ln) + body[20:20 + padded] +
                  swap_options(EPB, body[20 + padded:]))
        elif btype == SPB:
            nb = struct.pack('>I', struct.unpack_from('<I', body)[0]) + body[4:]
        elif btype == ISB:
            nb = struct.pack('>III', *struct.unpack_from('<III', body)) + swap_options(ISB, body[12:])
        elif btype == NRB:
            nb, off = b'', 0
            while True:
                rt, rl = struct.unpack_from('<HH', body, off)
                nb += struct.pack('>HH', rt, rl) + body[off + 4:off + 4 + rl + (-rl % 4)]
                off += 4 + rl + (-rl % 4)
                if rt == 0:
                    break
            nb += swap_options(NRB, body[off:])
        else:
            raise SystemExit('swap: block type 0x%x not known here' % btype)
        out += block(btype, nb, '>')
    return out


def first(data, btype):
    """offset of the first block of a type"""
    off = 0
    while off + 12 <= len(data):
        t, n = struct.unpack_from('<II', data, off)
        if t == btype:
            return off
        off += n
    raise SystemExit('no block of type %d' % btype)


def epb(ifid, payload, opts=b'', ts=(0x5e0be100 >> 4, 7), caplen=None, length=None):
    cap = len(payload) if caplen is None else caplen
    body = struct.pack('<IIIII', ifid, ts[0], ts[1], cap, len(payload) if length is None else length)
    return block(EPB, body + payload + b'\0' * (-len(payload) % 4) + opts)


def idb(lt, snap=0, opts=b''):
    return block(IDB, struct.pack('<HHI', lt, 0, snap) + opts)


def crafted(base, d):
    shb_end = first(base, IDB)
    shb = base[:shb_end]
    e0 = first(base, EPB)
    head = base[:e0]                  # SHB and IDBs
    t, n = struct.unpack_from('<II', base, e0)
    one = base[e0:e0 + n]             # the first EPB
    body = one[8:-4]
    cap = struct.unpack_from('<I', body, 12)[0]
    pkt = body[20:20 + cap]
    cases = {}
    add = cases.__setitem__
    # accepted as they are (the reader's own path)
    add('ok-flags', head + epb(0, pkt, opt(2, struct.pack('<I', 1)) + opt(0, b'')) +
        epb(0, pkt, opt(2, struct.pack('<I', 2)) + opt(1, b'a comment') + opt(0, b'')) +
        epb(0, pkt, opt(2, struct.pack('<I', 3))))
    add('ok-isb-nrb-dsb', head + one +
        block(ISB, struct.pack('<III', 0, 1, 2) + opt(2, struct.pack('<II', 1, 2)) + opt(4, b'\1' * 8)) +
        block(NRB, struct.pack('<HH', 1, 10) + b'\x0a\0\0\1ab\0c\0\0' + b'\0' * 2 +
              struct.pack('<HH', 0, 0)) +
        block(DSB, struct.pack('<II', 0x544c534b, 4) + b'keys') + one)
    for res in (0x06, 0x09, 0x00, 0x03, 0x13, 0x14, 0x7f, 0x80, 0x8a, 0xbf, 0xc0, 0xff):
        add('tsresol-%02x' % res, shb + idb(1, 0, opt(9, bytes([res])) + opt(0, b'')) +
            epb(0, pkt, ts=(0xfffffff0, 0xffffffff)) + epb(0, pkt, ts=(12345, 678901)))
    add('tsresol-len2', shb + idb(1, 0, opt(9, b'\x09\x09')) + epb(0, pkt))
    add('tsoffset', shb + idb(1, 0, opt(14, struct.pack('<q', -86400)) + opt(9, b'\x09')) + epb(0, pkt))
    add('tsoffset-huge', shb + idb(1, 0, opt(14, struct.pack('<q', 2**63 - 5))) + epb(0, pkt))
    add('multi-section', head + one + swap(head + one) + head + one)
    add('spb', shb + idb(1, 40) + block(SPB, struct.pack('<I', len(pkt)) + pkt[:40]) +
        block(SPB, struct.pack('<I', 30) + pkt[:30]))
    add('second-idb-later', head + one + idb(101, 0) + epb(1, pkt[14:]) + one)
    add('caplen-gt-len', head + epb(0, pkt, length=10))
    add('empty-section', head)
    # handed to libwiretap (at that block, or from the start)
    add('idb-undecoded', head + one + idb(105, 0) + epb(1, pkt) + one)
    add('first-idb-undecoded', shb + idb(147, 0) + epb(0, pkt))
    add('no-idb', shb + one)
    add('nrb-first', shb + block(NRB, struct.pack('<HH', 0, 0)) + head[shb_end:] + one)
    add('custom-block', head + one + block(0x00000BAD, struct.pack('<I', 32473) + b'data') + one)
    add('custom-option', head + epb(0, pkt, opt(2988, struct.pack('<I', 32473) + b'xy')) + one)
    add('unknown-block', head + one + block(0x12345678, b'1234') + one)
    add('pb-obsolete', head + block(2, struct.pack('<HHIIII', 0, 0, 1, 2, len(pkt), len(pkt)) + pkt))
    add('epb-flags-len3', head + one + epb(0, pkt, opt(2, b'\1\0\0')))
    add('epb-flags-twice', head + epb(0, pkt, opt(2, struct.pack('<I', 1)) + opt(2, struct.pack('<I', 2))))
    add('epb-verdict', head + epb(0, pkt, opt(7, b'\2' + b'\0' * 8)) + one)
    add('epb-dropcount-len4', head + epb(0, pkt, opt(4, b'\0' * 4)) + one)
    add('epb-ifid-out', head + epb(7, pkt) + one)
    add('epb-caplen-over-block', head + epb(0, pkt, caplen=len(pkt) + 100) + one)
    add('epb-caplen-huge', head + epb(0, pkt, caplen=300000) + one)
    add('epb-option-overrun', head + epb(0, pkt, struct.pack('<HH', 1, 200)) + one)
    add('epb-option-stub', head + epb(0, pkt, b'\1\0') + one)
    add('epb-after-endofopt', head + epb(0, pkt, opt(0, b'') + b'garbage!') + one)
    add('block-len-odd', head + one[:4] + struct.pack('<I', n - 2) + one[8:-4] + struct.pack('<I', n - 2) + one)
    add('block-len-huge', head + one[:4] + struct.pack('<I', 0xfffffff0) + one[8:])
    add('block-len-small', head + one[:4] + struct.pack('<I', 8) + one[8:])
    add('trailer-mismatch', head + one[:-4] + struct.pack('<I', n + 4) + one)
    add('cut-header', head + one + one[:6])
    add('cut-block', head + one + one[:-9])
    add('shb-version', head + one + shb[:12] + struct.pack('<H', 2) + shb[14:] + head[shb_end:] + one)
    add('shb-bad-magic', head + one + shb[:8] + b'\0\0\0\0' + shb[12:] + one)
    add('idb-filter-empty', head + one + idb(1, 0, opt(11, b'')) + one)
    add('idb-many', shb + idb(1, 0) * 1100 + epb(1099, pkt))
    add('nrb-short-record', head + block(NRB, struct.pack('<HH', 1, 2) + b'ab') + one)
    add('nrb-overrun', head + block(NRB, struct.pack('<HH', 2, 40) + b'x' * 8) + one)
    add('isb-small', head + block(ISB, struct.pack('<II', 0, 1)) + one)
    add('dsb-overrun', head + block(DSB, struct.pack('<II', 0x544c534b, 4000) + b'keys') + one)
    add('spb-no-idb', shb + block(SPB, struct.pack('<I', len(pkt)) + pkt))
    add('spb-extra', head + block(SPB, struct.pack('<I', 20) + pkt[:20] + b'\0' * 8) + one)
    add('big-comment', head + epb(0, pkt, opt(1, b'c' * 60000) + opt(1, b'd' * 60000)) + one)
    add('block-5mib', head + block(0x7fff0000, b'\0' * (5 << 20)) + one)
    for name, data in cases.items():
        with open('%s/%s.pcapng' % (d, name), 'wb') as f:
            f.write(data)


def mutate(data, d, count, seed):
    rnd = random.Random(seed)
    for i in range(count):
        b = bytearray(data)
        if i % 3 == 0:
            b = b[:rnd.randrange(1, len(b))]
        else:
            for _ in range(rnd.choice((1, 1, 2, 4))):
                at = rnd.randrange(len(b))
                b[at] = rnd.choice((0, 0xff, 0x7f, 0x80, rnd.randrange(256)))
        with open('%s/m%03d.pcapng' % (d, i), 'wb') as f:
            f.write(bytes(b))


def main():
    cmd = sys.argv[1]
    if cmd == 'swap':
        data = open(sys.argv[2], 'rb').read()
        open(sys.argv[3], 'wb').write(swap(data))
    elif cmd == 'crafted':
        crafted(open(sys.argv[2], 'rb').read(), sys.argv[3])
    elif cmd == 'mutate':
        mutate(open(sys.argv[2], 'rb').read(), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    else:
        raise SystemExit(__doc__)


main()
