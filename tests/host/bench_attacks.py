"""Issue 37's attacks as someone with the board on the bench runs them: code typed at the development image's REPL
(mpremote exec on the virtual board, or on the emulated Pico once the development image is loaded over the
production one, as BOOTSEL lets him), which reaches the journal's files, the write-ahead ring and the secure
element's driver. Each string below runs in the shoe's VM, the same on both boards; the tests
(tests/host/test_bench_attacks.py) restart the shoe, pull its journal and check what the verifier says.

Nothing here is a hand-made journal: every byte the attacker writes is rebuilt from the shoe's own, with the shoe's
own code (firmware.journal's chain, firmware.checkpoints' layout), and every signature is the element's."""

# The attacker's common tools: the ring drained into the files and erased (what the shoe's own set_aside does before
# a journal is kept aside), so that the files alone are the journal at the next boot; the segments and the
# checkpoint entries read and written back; an entry signed by the element as the REPL lets him have it signed (the
# chip's own signature, at the counter it has), its hash of the one before and its CRC made good.
PRELUDE = r"""
import os, struct
from binascii import crc32
from hashlib import sha256
from firmware.runtime import Runtime
from firmware import layout as L
from firmware.checkpoints import ATTEST_SLOT
from firmware.format import checkpoint as cp
from firmware.journal import chained, header_chain, parse_header
shell = Runtime.current.shell
points = shell.checkpoints
element = points.element
shell.journal.sync()
shell.journal.storage.set_aside()
CP = points.path

def names():
    return sorted(n for n in os.listdir('journal') if n.endswith('.sbj'))

def read(path):
    f = open(path, 'rb')
    data = f.read()
    f.close()
    return data

def write(path, data):
    f = open(path, 'wb')
    f.write(data)
    f.close()

def entries():
    data = read(CP)
    return [bytearray(data[i:i + cp.SIZE]) for i in range(0, len(data) - len(data) % cp.SIZE, cp.SIZE)]

def put(kept):
    write(CP, b''.join(bytes(e) for e in kept))

def field(entry, i):
    return struct.unpack_from(cp.ENTRY, entry, 0)[i]

def signed(entry, previous):
    entry[cp.PREVIOUS_AT:cp.PREVIOUS_AT + 32] = previous
    digest = sha256(cp.LABEL + bytes(entry[:cp.SIGNED])).digest()
    got = element.attest(digest[:20], ATTEST_SLOT, False)
    entry[cp.RAND_AT:cp.CHIP_AT] = got[:32]
    entry[cp.SIGNATURE_AT:cp.CRC_AT] = got[32:]
    struct.pack_into('<I', entry, cp.CRC_AT, crc32(bytes(entry[:cp.CRC_AT])))
    return sha256(bytes(entry)).digest()
"""

# 1. The forced card made an ordinary burn (issue 37's rewrite): its record becomes a burn's release, its alarm the
# burned card, its clearing is taken out; every later record renumbered and chained again (each later segment's
# header too), every checkpoint entry given the new seq and chain values, the alarm's entry taken out; the element
# counted once and the last entry given that value, and every entry signed again by the element: one genuine
# signature, the last coup's.
FORCED_MADE_A_BURN = PRELUDE + r"""
frames = []  # [segment name, its header (the first frame of a segment) or None, body or None, old seq]
for name in names():
    data = read('journal/' + name)
    header = bytearray(data[:L.HEADER_SIZE])
    seq = parse_header(header)[9]
    ends = len(data) - (len(data) - L.HEADER_SIZE) % L.FRAME_SIZE
    frames.append([name, header, None, seq])
    for at in range(L.HEADER_SIZE, ends, L.FRAME_SIZE):
        seq += 1
        frames.append([name, None, bytearray(data[at + L.BODY_AT:at + L.LINK_AT]), seq])
forced = [i for i, f in enumerate(frames) if f[2] is not None and f[2][0] == 5 and f[2][17] == 1][0]
body = frames[forced][2]
release = bytearray(body)
release[0] = 11
struct.pack_into('<H', release, 13, struct.unpack_from('<H', body, 13)[0] - 1)
release[L.BODY_CARD] = release[16] = release[17] = 0
struct.pack_into('<H', release, L.BODY_CODE, 2)
burned = bytearray(frames[forced + 1][2])
assert burned[0] == 7
burned[0] = 5
burned[L.BODY_CARD] = body[L.BODY_CARD]
burned[16] = 1
burned[17] = 0
struct.pack_into('<H', burned, L.BODY_CODE, 0)
frames[forced][2] = release
frames[forced + 1][2] = burned
cleared = frames[forced + 2]
assert cleared[2][0] == 8
removed_seq = cleared[3]
frames.remove(cleared)
out = {}
chains = {}
seq = chain = previous_name = None
for name, header, body, _ in frames:
    if header is not None:
        if previous_name is not None:
            header[L.PREVIOUS_CHAIN_AT:L.PREVIOUS_CHAIN_AT + 32] = chain
            struct.pack_into('<II', header, L.HEADER_FIXED - 8, len(out[previous_name]), seq)
        else:
            seq = parse_header(header)[9]
        struct.pack_into('<I', header, L.HEADER_CRC_AT, crc32(bytes(header[:L.HEADER_CRC_AT])))
        chain = header_chain(header)
        out[name] = bytearray(header)
        previous_name = name
        continue
    frame = bytearray(L.FRAME_SIZE)
    frame[0] = L.SYNC
    frame[1] = L.BODY_SIZE
    seq += 1
    struct.pack_into('<I', frame, L.SEQ_AT, seq)
    frame[L.BODY_AT:L.LINK_AT] = body
    frame[L.LINK_AT:L.CRC_AT] = chain[:L.LINK_SIZE]
    struct.pack_into('<I', frame, L.CRC_AT, crc32(bytes(frame[:L.CRC_AT])))
    chain = chained(chain, bytes(body))
    chains[seq] = chain
    out[name] += frame
for name in out:
    write('journal/' + name, bytes(out[name]))
kept = [e for e in entries() if e[1] != cp.ALARM]
element.increment(0)
counter = element.counter(0)
last = len(kept) - 1
struct.pack_into('<I', kept[last], 4, counter)
if kept[last][1] == cp.COUP_END and kept[last - 1][1] == cp.OPENING:
    struct.pack_into('<I', kept[last - 1], 4, counter)
previous = bytes(32)
for e in kept:
    s = field(e, 5)
    if s >= removed_seq:
        s -= 1
        struct.pack_into('<I', e, 12, s)
    if s in chains:
        e[16:48] = chains[s]
    previous = signed(e, previous)
put(kept)
print('rewritten', len(kept), counter)
"""

# 2. The coup in play cut back to the checkpoint before it: the last coup's end that stands before it, every entry
# after it (a power-up's, the development image's own) and every record after its end taken out.
CUT_BACK_TO_THE_LAST_CHECKPOINT = PRELUDE + r"""
kept = entries()
at = max(i for i, e in enumerate(kept) if e[1] == cp.COUP_END)
segment, seq = field(kept[at], 4), field(kept[at], 5)
put(kept[:at + 1])
cut = 0
for name in names():
    path = 'journal/' + name
    data = read(path)
    fields = parse_header(data[:L.HEADER_SIZE])
    if fields[4] > segment:
        os.remove(path)
        cut += (len(data) - L.HEADER_SIZE) // L.FRAME_SIZE
    elif fields[4] == segment:
        write(path, data[:L.HEADER_SIZE + (seq - fields[9]) * L.FRAME_SIZE])
        cut += (len(data) - L.HEADER_SIZE) // L.FRAME_SIZE - (seq - fields[9])
print('cut', cut, 'records', len(kept) - at - 1, 'entries')
"""

# 3. An earlier entry's reason rewritten (the forced card's alarm made a coup's end), its CRC made good: no
# signature asked for.
EARLIER_REASON_REWRITTEN = PRELUDE + r"""
kept = entries()
alarm = [i for i, e in enumerate(kept) if e[1] == cp.ALARM][0]
assert alarm < len(kept) - 1
kept[alarm][1] = cp.COUP_END
struct.pack_into('<I', kept[alarm], cp.CRC_AT, crc32(bytes(kept[alarm][:cp.CRC_AT])))
put(kept)
print('rewritten entry', alarm + 1)
"""
