// The secure element on the emulated Pico's I2C0 at 0x60 (docs/pico-emulator.md): boards/sim/element.py's model of
// the ATECC608B, the same bytes on the same transactions, so that boards/mcu/atecc.py on the rp2 port cannot tell it
// from the chip nor from the Python model. Its key comes from its seed as the Python model's does, and ECDSA P-256
// with RFC 6979's nonce (@noble/curves, pinned in package.json) signs to the same bytes: the same seed, the same
// public key and signatures. Its state (seed, counters, random numbers drawn) is a file of the Python model's format
// beside the flash file, outside the emulated flash: neither mpremote nor a dump of the flash reaches it. It answers
// at once: the driver waits each command's datasheet maximum anyway. Not modelled, as in the Python model: the chip's
// watchdog, its configuration and data zones.
import fs from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { p256 } from '@noble/curves/nist';
import { I2CMode } from 'rp2040js';

const ADDRESS = 0x60;
const WAKE_ADDRESS = 0x00;
const [SLEEP, IDLE, COMMAND] = [0x01, 0x02, 0x03]; // word addresses
const [INFO, RANDOM, GENKEY, NONCE, SIGN, COUNTER] = [0x30, 0x1b, 0x40, 0x16, 0x41, 0x24]; // opcodes
const NONCE_PASS_THROUGH = 0x03;
const SIGN_EXTERNAL = 0x80;
const COUNTER_INCREMENT = 0x01;
const COUNTER_MAX = 2097151;
const KEY_SLOT = 0;
const REVISION = [0x00, 0x00, 0x60, 0x03]; // an ATECC608B
const [OK, PARSE_ERROR, EXECUTION_ERROR, CRC_ERROR, AWAKE] = [0x00, 0x03, 0x0f, 0xff, 0x11];
const TX_EMPTY = 1 << 4; // the I2C's raw interrupt bit
const STATE_BYTES = 44; // boards/sim/element.py's "<32sIII": seed, counter 0, counter 1, random numbers drawn

const sha256 = (...parts) => createHash('sha256').update(Buffer.concat(parts.map((p) => Buffer.from(p)))).digest();
const uint32 = (value) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
};

// The chip's CRC-16: polynomial 0x8005, each byte fed least significant bit first, the register starting at 0.
function crc16(data) {
  let crc = 0;
  for (const byte of data) {
    for (let bit = 0; bit < 8; bit++) {
      const feed = ((byte >> bit) & 1) !== crc >> 15;
      crc = ((crc << 1) ^ (feed ? 0x8005 : 0)) & 0xffff;
    }
  }
  return crc;
}

// count, payload, CRC little-endian: how the chip sends an answer.
function framed(payload) {
  const body = [payload.length + 3, ...payload];
  const crc = crc16(body);
  return [...body, crc & 0xff, crc >> 8];
}

export class Element {
  // The chip made from seed (32 bytes); its state written to path (when given) at every change.
  constructor(seed, path = null, counters = [0, 0], drawn = 0) {
    this.seed = Buffer.from(seed);
    const n = p256.CURVE.n;
    this.key = (BigInt('0x' + sha256('sabot element key\0', this.seed).toString('hex')) % (n - 1n)) + 1n;
    this.path = path;
    this.counters = [...counters];
    this.drawn = drawn;
    this.powerOff();
  }

  // The element whose state is at path; a new one (a random seed) saved there when there is none.
  static load(path) {
    if (!fs.existsSync(path)) {
      const element = new Element(randomBytes(32), path);
      element.save();
      return element;
    }
    const state = fs.readFileSync(path);
    if (state.length !== STATE_BYTES) throw new Error(`atecc.mjs: ${path} is not an element's state`);
    const counters = [state.readUInt32LE(32), state.readUInt32LE(36)];
    return new Element(state.subarray(0, 32), path, counters, state.readUInt32LE(40));
  }

  // Asleep, TempKey and the output buffer gone: the chip without power. Its EEPROM (the state file) stays.
  powerOff() {
    this.awake = false;
    this.tempkey = null;
    this.out = [];
  }

  acknowledges(address) {
    return address === ADDRESS && this.awake;
  }

  // A write on the bus: the wake pulse at 0x00, or a word address and its bytes at 0x60. False: nobody acknowledged.
  writeto(address, bytes) {
    if (address === WAKE_ADDRESS) {
      if (!this.awake) {
        this.awake = true;
        this.out = framed([AWAKE]);
      }
      return false; // nobody acknowledges 0x00
    }
    if (!this.acknowledges(address)) return false;
    const word = bytes[0];
    if (word === COMMAND) this.out = framed(this.execute(bytes.slice(1)));
    else if (word === SLEEP || word === IDLE) {
      this.awake = false;
      if (word === SLEEP) this.tempkey = null;
    }
    return true;
  }

  // The answer's i-th byte, each read starting again at 0; 0xFF past it, as the chip's empty output buffer reads.
  byte(i) {
    return i < this.out.length ? this.out[i] : 0xff;
  }

  // The answer's payload for a command's bytes (count to CRC), in boards/sim/element.py's order of checks.
  execute(body) {
    const size = body.length;
    if (size < 7 || body[0] !== size || crc16(body.slice(0, -2)) !== (body[size - 2] | (body[size - 1] << 8))) {
      return [CRC_ERROR];
    }
    const [opcode, param1, param2, data] = [body[1], body[2], body[3] | (body[4] << 8), body.slice(5, -2)];
    const none = data.length === 0;
    if (opcode === INFO && param1 === 0 && none) return REVISION;
    if (opcode === RANDOM && param1 === 0 && none) {
      this.drawn += 1;
      this.save();
      return [...sha256('sabot element random\0', this.seed, uint32(this.drawn))];
    }
    if (opcode === GENKEY && param1 === 0 && param2 === KEY_SLOT && none) {
      return [...p256.getPublicKey(this.key, false).subarray(1)]; // X || Y, without the 04 prefix
    }
    if (opcode === GENKEY && param2 === KEY_SLOT) return [EXECUTION_ERROR]; // a new private key: slot 0 is locked
    if (opcode === NONCE && param1 === NONCE_PASS_THROUGH && param2 === 0 && data.length === 32) {
      this.tempkey = Uint8Array.from(data);
      return [OK];
    }
    if (opcode === SIGN && param1 === SIGN_EXTERNAL && param2 === KEY_SLOT && none) {
      if (this.tempkey === null) return [EXECUTION_ERROR]; // nothing loaded to sign
      const digest = this.tempkey;
      this.tempkey = null;
      return [...p256.sign(digest, this.key, { lowS: false }).toCompactRawBytes()]; // R || S, S as computed
    }
    if (opcode === COUNTER && (param1 === 0 || param1 === COUNTER_INCREMENT) && (param2 === 0 || param2 === 1)
        && none) {
      if (param1 === COUNTER_INCREMENT) {
        if (this.counters[param2] >= COUNTER_MAX) return [EXECUTION_ERROR];
        this.counters[param2] += 1;
        this.save();
      }
      return [...uint32(this.counters[param2])];
    }
    return [PARSE_ERROR];
  }

  // The state replaced whole by a rename: the old or the new after a power cut, never a counter gone back.
  save() {
    if (this.path === null) return;
    const state = Buffer.concat([this.seed, uint32(this.counters[0]), uint32(this.counters[1]), uint32(this.drawn)]);
    fs.writeFileSync(this.path + '.tmp', state);
    fs.renameSync(this.path + '.tmp', this.path);
  }
}

// The element on an rp2040js I2C bus, beside the device models already attached (the DS3231), which keep every other
// address. A write is carried out at its stop or repeated start, as the chip acts once the transfer ends.
export function attachElement(i2c, element) {
  const other = { onConnect: i2c.onConnect, onWriteByte: i2c.onWriteByte, onReadByte: i2c.onReadByte,
    onStop: i2c.onStop };
  let mine = false;
  let written = null; // the bytes of a write to 0x60 in progress
  let read = 0; // the bytes read so far in this read
  // No acknowledge. The abort flushes the TX FIFO, which the chip then reports empty; rp2040js 1.4.1 leaves TX_EMPTY
  // low, so pico-sdk's write would wait out its timeout (50 ms) and fail with ETIMEDOUT where the chip fails at once.
  const refuse = () => {
    i2c.completeConnect(false);
    i2c.setInterrupts(TX_EMPTY);
  };
  const finish = () => {
    if (written) element.writeto(ADDRESS, written);
    written = null;
  };
  i2c.onConnect = (address, mode) => {
    finish();
    mine = address === ADDRESS || (address === WAKE_ADDRESS && mode === I2CMode.Write);
    if (!mine) return other.onConnect(address, mode);
    if (address === WAKE_ADDRESS) {
      element.writeto(WAKE_ADDRESS, []);
      return refuse();
    }
    if (!element.acknowledges(address)) return refuse();
    written = mode === I2CMode.Write ? [] : null;
    read = 0;
    return i2c.completeConnect(true);
  };
  i2c.onWriteByte = (value) => {
    if (!mine) return other.onWriteByte(value);
    written.push(value);
    return i2c.completeWrite(true);
  };
  i2c.onReadByte = () => (mine ? i2c.completeRead(element.byte(read++)) : other.onReadByte());
  i2c.onStop = () => {
    if (!mine) return other.onStop();
    finish();
    mine = false;
    return i2c.completeStop();
  };
}
