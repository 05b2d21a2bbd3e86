"""The secure element on I2C: an ATECC608B beside the DS3231, driven as Microchip's cryptoauthlib drives it. The
part a casino orders is a Trust&GO (ATECC608B-TNGTLS, at 0x35: slot 0 a permanent P-256 private key generated
inside the chip at Microchip's factory, no command reads or replaces it); a TrustFLEX answers at 0x36, a generic
ATECC608B at 0x60, once provisioned at the factory bench (boards/mcu/provision.py). The board's data gives the
address. The shoe asks it for its public key, ECDSA signatures of digests, its monotonic counters and random
numbers; never on a card's path (a signature takes up to 665 ms at the chip's slowest clock).

The wire protocol (the ATECC508A data sheet, cryptoauthlib's calib_execution.c and calib_basic.c): a wake pulse (SDA
held low >= 60 us: the address byte of a write to 0x00 at 100 kHz), 1.5 ms, then the wake answer 04 11 33 43, tried
20 times (the power-on self-test); packets written to word address 0x03: count, opcode, param1, param2 (16-bit
little-endian), data, CRC-16; the answer polled (the 608B supports polling only: its address is not acknowledged
while a command executes), its count byte first then the rest (the chip's address counter carries on), count, data
or one status byte, CRC. A CRC error, an ECC fault (0x05) and a watchdog about to expire (0xEE) are transient: the
whole sequence is sent again in a fresh wake (TempKey and the message digest buffer do not survive a sleep), a
bounded number of times; a garbled answer is read again first (word address 0x00 resets the address counter). The
chip is put to idle in every path. A failure that persists raises ElementError, an OSError as a missing I2C device
does: at boot the shoe then stays locked."""

import time
from binascii import hexlify

from boards.mcu.atecc_run import ATTEMPTS, Again, Counting, ElementError, Run  # noqa: F401 (ElementError: the driver's)
from firmware.compat import const

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import I2C

ADDRESS = const(0x35)  # ATECC608B-TNGTLS (Trust&GO): the default part
TRUSTFLEX_ADDRESS = const(0x36)  # ATECC608B-TFLXTLS
GENERIC_ADDRESS = const(0x60)  # a generic ATECC608B as it ships
WAKE_ADDRESS = const(0x00)  # nobody answers: the write only holds SDA low long enough to wake the chip
RESET = const(0x00)  # word addresses: the address counter back to the answer's first byte
SLEEP = const(0x01)
IDLE = const(0x02)
COMMAND = const(0x03)
INFO = const(0x30)  # opcodes
RANDOM = const(0x1B)
GENKEY = const(0x40)
NONCE = const(0x16)
SIGN = const(0x41)
COUNTER = const(0x24)
GENDIG = const(0x15)
READ = const(0x02)
WRITE = const(0x12)
LOCK = const(0x17)
NONCE_PASS_THROUGH = const(0x03)  # Nonce's mode: the 32 bytes given go to TempKey as they are
NONCE_TO_DIGEST_BUFFER = const(0x43)  # ... to the message digest buffer instead (cryptoauthlib's choice on a 608)
SIGN_EXTERNAL = const(0x80)  # Sign's mode: the message is TempKey, loaded by Nonce
SIGN_INTERNAL = const(0x00)  # ... the chip's own message, built around TempKey as GenDig left it
NONCE_SEED_UPDATE = const(0x00)  # Nonce's mode: TempKey = SHA-256(its random number, the 20 bytes given, 16 00 00)
GENDIG_COUNTER = const(0x04)  # GenDig's zone: a monotonic counter's value folded into TempKey
SIGN_FROM_DIGEST_BUFFER = const(0xA0)  # ... the message digest buffer
GENKEY_PUBLIC = const(0x00)  # GenKey's modes: the public key of a slot's private key; a new private key
COUNTER_INCREMENT = const(0x01)  # Counter's mode (0x00 reads)
COUNTER_MAX = const(2097151)  # the chip's limit: an increment past it is refused
ZONE_CONFIG_32 = const(0x80)  # Read / Write zone: the configuration zone, 32 bytes (0x00: 4 bytes)
KEY_SLOT = const(0)
ATTEST_SLOT = const(1)  # Trust&GO's and the provisioned part's internal-sign key: it signs only what the chip built
WAKE_ANSWER = b"\x04\x11\x33\x43"  # status 0x11, "awake, no command yet", and its CRC
SELF_TEST_FAILED = b"\x04\x07\xc4\x40"  # status 0x07 in answer to a wake
STATUS = {0x01: "verify miscompare", 0x03: "parse error (a command or parameter it refuses)", 0x05: "ECC fault",
          0x07: "self-test error", 0x08: "health test error", 0x0F: "execution error", 0x11: "awake, no command",
          0xEE: "watchdog about to expire", 0xFF: "CRC or communication error"}
_WAKE_TRIES = const(20)  # cryptoauthlib's rx_retries for the 608: its power-on self-test may take several
_WAKE_MS = const(2)  # tWHI, 1.5 ms at most
_WAKE_AGAIN_MS = const(3)  # between tries of a chip that did not acknowledge
_POLL_FIRST_MS = const(1)  # cryptoauthlib's ATCA_POLLING_INIT_TIME_MSEC and ATCA_POLLING_FREQUENCY_TIME_MSEC
_POLL_MS = const(2)
_POLL_SLACK_MS = const(20)
# Each command's longest time, at the slowest clock (ChipMode M2: cryptoauthlib's device_execution_time_608_m2)
_MAX_MS = {INFO: 5, RANDOM: 23, GENKEY: 653, NONCE: 20, SIGN: 665, COUNTER: 25, READ: 5, WRITE: 45, LOCK: 35,
           GENDIG: 35}
_AGAIN = (0x05, 0x11, 0xEE, 0xFF)  # an ECC fault, a command the chip never got, the watchdog, a CRC error
_IDLE_WORD = b"\x02"
_SLEEP_WORD = b"\x01"
_RESET_WORD = b"\x00"
_FAMILY = b"\x00\x00\x60"  # Info's revision of an ATECC608 (00 00 60 02: A, 03: B)


def crc16(data):
    """The chip's CRC-16 (polynomial 0x8005, each byte fed least significant bit first, register starting at 0)."""
    crc = 0
    for byte in data:
        for bit in range(8):
            if (byte >> bit & 1) != crc >> 15:
                crc = (crc << 1 ^ 0x8005) & 0xFFFF
            else:
                crc = crc << 1 & 0xFFFF
    return crc


def packet(opcode, param1, param2, data=b""):
    """A command as written to word address 0x03 (the address included)."""
    body = bytes((COMMAND, 7 + len(data), opcode, param1, param2 & 0xFF, param2 >> 8)) + data
    crc = crc16(body[1:])
    return body + bytes((crc & 0xFF, crc >> 8))


def answer(payload):
    """An answer as the chip sends it: count, payload (data or one status byte), CRC."""
    body = bytes((len(payload) + 3,)) + payload
    crc = crc16(body)
    return body + bytes((crc & 0xFF, crc >> 8))


def _hex(data):
    return hexlify(bytes(data)).decode()


class ATECC:
    def __init__(self, i2c: "I2C", sleep_ms=None, address=ADDRESS):
        """i2c: the bus at 100 kHz (faster, the wake pulse is too short), any object with machine.I2C's writeto and
        readfrom_into; sleep_ms: the wait (time.sleep_ms); address: the part's (the board's data)."""
        self._i2c = i2c
        self._sleep_ms = sleep_ms or time.sleep_ms
        self.address = address
        self._wake = bytearray(4)
        self._count = bytearray(1)
        self._family = None  # Info's revision, checked at the first command
        self._running = None  # type: Run | None  # the last Run started: the chip's until it is done

    # What the shoe asks

    def revision(self):
        """Info's revision: 4 bytes, 00 00 60 03 for an ATECC608B."""
        return self._run(((INFO, 0, 0, b"", 4),), check=False)

    def check(self):
        """The part's revision; an ElementError, one clear line, unless it is an ATECC608."""
        revision = self.revision()
        if revision[:3] != _FAMILY:
            raise ElementError("the part at 0x%02x is not an ATECC608: its revision is %s (an ATECC508A's is 00005000)"
                               % (self.address, _hex(revision)))
        self._family = revision
        return revision

    def random(self):
        """32 random bytes from the chip's generator (its seed updated first when it needs it)."""
        return self._run(((RANDOM, 0, 0, b"", 32),))

    def public_key(self, slot=KEY_SLOT):
        """A slot's public key, X || Y (64 bytes): slot 0's is what the casino enrols."""
        return self._run(((GENKEY, GENKEY_PUBLIC, slot, b"", 64),))

    def sign(self, digest, slot=KEY_SLOT):
        """ECDSA P-256 over a 32-byte digest with a slot's key: R || S (64 bytes). As cryptoauthlib's calib_sign on a
        608: Random (the generator's seed updated), Nonce into the message digest buffer, Sign from it, in one wake
        (the buffer is lost when the chip sleeps), the three sent again together on a transient failure."""
        return self._finish(self.signing(digest, slot))

    def signing(self, digest, slot=KEY_SLOT):
        """sign(digest, slot) begun: a Run whose answer is the signature."""
        if len(digest) != 32:
            raise ValueError("the element signs a 32-byte digest, not %d bytes" % len(digest))
        return self.start(((RANDOM, 0, 0, b"", 32), (NONCE, NONCE_TO_DIGEST_BUFFER, 0, digest, 1),
                          (SIGN, SIGN_FROM_DIGEST_BUFFER, slot, b"", 64)))

    def read_config(self):
        """The configuration zone, 128 bytes (four 32-byte reads)."""
        return self._run(tuple((READ, ZONE_CONFIG_32, block << 3, b"", 32) for block in range(4)), every=True)

    def at(self, address):
        """A driver on the same bus for the part at address (the factory bench reaches a generic part at 0x60)."""
        return ATECC(self._i2c, self._sleep_ms, address)

    def attestation(self):
        """Whether the chip can vouch for its counter 0 itself, and how: None unless ATTEST_SLOT holds a P-256
        private key that signs internal messages alone (SlotConfig bit 1 set, bit 0 clear: no external Sign could
        forge one); else the 5 bytes of the configuration its internal messages carry after GenDig on a counter
        (TempKey's key id is then 0): slot 0's SlotConfig and KeyConfig (little-endian) and 1 when slot 0 is not
        locked (its SlotLocked bit set), 0 when it is (cryptoauthlib's atcah_config_to_sign_internal)."""
        config = self.read_config()
        slot = config[20 + 2 * ATTEST_SLOT] | config[21 + 2 * ATTEST_SLOT] << 8
        key = config[96 + 2 * ATTEST_SLOT] | config[97 + 2 * ATTEST_SLOT] << 8
        if slot & 3 != 2 or not key & 1 or key >> 2 & 7 != 4:
            return None
        return bytes(config[20:22]) + bytes(config[96:98]) + bytes((config[88] & 1,))

    def attest(self, num_in, slot=ATTEST_SLOT, read=True):
        """The chip's own signature over counter 0 as it stands and 20 bytes of the caller's (a digest's first): the
        counter (4 bytes, little-endian; when read) || RandOut (32) || R || S (64). As cryptoauthlib's tests chain
        it: Counter read, Nonce (a random nonce, the seed updated, num_in given: TempKey from the chip's random
        number), GenDig on counter 0 (its value folded into TempKey inside the chip), Sign in internal mode with
        slot's key; in one wake (TempKey does not survive a sleep) and one run (no increment between the read and
        GenDig), sent again together on a transient failure. Without read, the caller knows the value (its own
        increment's, just returned): 25 ms less."""
        return self._finish(self.attesting(num_in, slot, read))

    def attesting(self, num_in, slot=ATTEST_SLOT, read=True):
        """attest(num_in, slot, read) begun: a Run whose answer is [the counter ||] RandOut || R || S (GenDig's status
        left out)."""
        if len(num_in) != 20:
            raise ValueError("the element's nonce takes 20 bytes, not %d" % len(num_in))
        commands = [(NONCE, NONCE_SEED_UPDATE, 0, num_in, 32), (GENDIG, GENDIG_COUNTER, 0, b"", 1),
                    (SIGN, SIGN_INTERNAL, slot, b"", 64)]
        if read:
            commands.insert(0, (COUNTER, 0, 0, b"", 4))
        return self.start(commands, every=True)

    def counter(self, which):
        """Monotonic counter 0 or 1, as it stands."""
        return self._finish(self.reading(which))

    def reading(self, which):
        """counter(which) begun: a Run whose answer is the counter's value."""
        return self.start(((COUNTER, 0, which, b"", 4),), number=True)

    def increment(self, which, seen=None):
        """Monotonic counter 0 or 1 counted up; its value after the count. The chip's answer to an increment may be
        lost after it counted (a garbled answer, an ECC fault, no answer), so a lost answer is never settled by
        counting again blindly: the counter is read back, and if it moved since before the call, that value is the
        answer. The caller can rely on: the value returned is above every value seen before the call; it is one
        more than before unless the chip counted more than once (a power cut during an increment, as the data sheet
        allows); no retry of this driver ever counts a second time. An ElementError at COUNTER_MAX (0x0F, nothing
        counted), or when the chip cannot be reached: the counter may then have counted, read it (counter()) before
        relying on its next value. seen: the counter's value as the caller last knew it (its last increment's, or its
        read at power-up), which spares the read before (a Counter command, 25 ms at the chip's slowest): a lost answer
        is settled against it."""
        return self._finish(self.incrementing(which, seen))

    def incrementing(self, which, seen=None):
        """increment(which, seen) begun: polled as a Run is (done, poll(ms)), its answer the counter's value after the
        count; a lost answer settled by the reads increment() makes, each a Run of its own."""
        return Counting(self, which, seen)

    # The chip

    def wake(self):
        """The chip awake, its wake answer read: tried 20 times (the power-on self-test NACKs meanwhile); a chip
        already awake (left so by an MCU reset, an old answer in its buffer) is sent to idle and woken again."""
        said = None
        for _ in range(_WAKE_TRIES):
            try:
                self._i2c.writeto(WAKE_ADDRESS, b"\x00")
            except OSError:
                pass  # no device at 0x00 acknowledges: the pulse is all that matters
            self._sleep_ms(_WAKE_MS)
            try:
                self._i2c.readfrom_into(self.address, self._wake)
            except OSError:
                self._sleep_ms(_WAKE_AGAIN_MS)  # asleep still, in its self-test, busy, or nobody at the address
                continue
            if self._wake == WAKE_ANSWER:
                return
            if self._wake == SELF_TEST_FAILED:
                raise ElementError("the element at 0x%02x failed its self-test" % self.address, 0x07)
            said = bytes(self._wake)
            self._rest(_IDLE_WORD)  # awake already: idle, so that the next pulse wakes it afresh
        if said is None:
            raise ElementError("no element answers at 0x%02x (an ATECC608B-TNGTLS answers at 0x35, a TrustFLEX at "
                               "0x36, a generic ATECC608B at 0x60)" % self.address)
        raise ElementError("the device at 0x%02x is not an ATECC: it answers %s to a wake" % (self.address, _hex(said)))

    def idle(self):
        """Idle: TempKey kept, the watchdog stopped, a wake pulse needed again."""
        self._i2c.writeto(self.address, _IDLE_WORD)

    def sleep(self):
        """Sleep: TempKey cleared, the lowest power."""
        self._i2c.writeto(self.address, _SLEEP_WORD)

    def _idle_quietly(self):
        self._rest(_IDLE_WORD)

    def _sleep_quietly(self):
        self._rest(_SLEEP_WORD)

    def _incrementing_once(self, which):
        """The increment sent in one attempt, counted once at most (Counting settles a lost answer)."""
        return self.start(((COUNTER, COUNTER_INCREMENT, which, b"", 4),), attempts=1, number=True)

    def _rest(self, word):
        try:
            self._i2c.writeto(self.address, word)
        except OSError:
            pass  # busy, or asleep already (its watchdog): either way it is not awake for long

    def start(self, commands, attempts=ATTEMPTS, every=False, check=True, number=False):
        """Each (opcode, param1, param2, data, answer size) begun in one wake: the Run its caller polls (Run.poll) at
        its own pace. The chip is one: a run under way is driven to its end first, its answer kept for its owner."""
        if check and self._family is None:
            self.check()
        self.finish()  # a run under way driven to its end first
        run = self._running = Run(self, commands, attempts, every, number)
        run.poll(0)
        return run

    def busy(self):
        """Whether a run is under way (a receipt's signature polled by its owner): the chip is one."""
        running = self._running
        return running is not None and not running.done

    def finish(self, run=None):
        """run (a Run, or an increment's) polled to its end, sleeping between polls; None: the run under way, its
        answer or failure kept for its owner."""
        if run is not None:
            return self._finish(run)
        running = self._running
        if running is not None and not running.done:
            try:
                self._finish(running)
            except OSError:
                pass  # its owner hears it at its next poll
        return None

    def _run(self, commands, attempts=ATTEMPTS, every=False, check=True):
        """A run polled to its end, sleeping between polls as cryptoauthlib does: its answer, or what failed."""
        return self._finish(self.start(commands, attempts, every, check))

    def _finish(self, run):
        wait = _POLL_FIRST_MS
        while not run.done:
            self._sleep_ms(wait)
            run.poll(wait)
            wait = _POLL_MS
        return run.poll(0)

    def _send(self, opcode, param1, param2, data):
        try:
            self._i2c.writeto(self.address, packet(opcode, param1, param2, data))
        except OSError:
            raise Again("the element did not take command 0x%02x (asleep or busy)" % opcode) from None

    def _taken(self, opcode, size, waited):
        """The command's answer (its data), or None while the chip works on it (its address not acknowledged) and
        waited (ms since it was written) is under the command's longest time at the slowest clock."""
        try:
            frame = self._frame(size)
        except OSError:
            if waited >= _MAX_MS.get(opcode, 50) + _POLL_SLACK_MS:
                raise Again("the element did not answer command 0x%02x within %d ms" % (opcode, waited)) from None
            return None
        if frame is None:
            self._rest(_RESET_WORD)  # the same answer read again: the line, not the chip, may have garbled it
            try:
                frame = self._frame(size)
            except OSError:
                frame = None
        if frame is None:
            raise Again("the element's answer to command 0x%02x is garbled" % opcode)
        count = frame[0]
        if count == 4 and (size != 1 or frame[1]):  # a status where data was due, or a status other than success
            status = frame[1]
            raise (Again if status in _AGAIN else ElementError)("the element refused command 0x%02x: %s (0x%02x)" % (
                opcode, STATUS.get(status, "status"), status), status)
        if count != size + 3:
            raise Again("the element's answer to command 0x%02x has %d bytes" % (opcode, count))
        return frame[1:count - 2]

    def _frame(self, size):
        """An answer read, its count byte first then the rest: the whole frame, or None when it is garbled."""
        self._i2c.readfrom_into(self.address, self._count)
        count = self._count[0]
        if count < 4 or count > size + 3:
            return None
        rest = bytearray(count - 1)
        try:
            self._i2c.readfrom_into(self.address, rest)
        except OSError:
            return None
        frame = bytes(self._count) + rest
        if crc16(frame[:-2]) != frame[-2] | frame[-1] << 8:
            return None
        return frame
