// The emulated Raspberry Pi Pico of a shoe (docs/pico-emulator.md): rp2040js running the image of `make image
// BOARD=rpi_pico` on the project's own bootrom (bootrom.c), with the board's world around it:
//   - the W25Q16JV's 2 MB in a file kept across power cycles; erase and program done here (the bootrom traps them;
//     rp2040js's flash controller does not write), stalling simulated time as the chip would;
//   - the inputs of boards/rpi_pico/pins.py (pulled up, as wired), the gate, LED and buzzer watched with their
//     simulated time; the card reader's UART0; a DS3231 at 0x68 on I2C0 keeping time across power cycles; every
//     other address of I2C0 carried to the secure element's model in the host's Python process (--element-fd);
//   - the watchdog (its start an event; a reset keeps the flash, the clock and its scratch registers), power cycles;
//   - USB CDC (the REPL) on stdin/stdout: `socat PTY,... EXEC:"node pico.mjs ..."` makes it a pty for mpremote.
// A control socket (--control PATH) takes JSON lines ({"cmd": "pin", "pin": 17, "level": 0, "at_us": 5000}, ...)
// and sends events back ({"ev": "pin", "pin": 16, "level": 1, "t_us": ...}): host_tools/sabot/pico.py drives it.
import fs from 'node:fs';
import net from 'node:net';
import { RP2040, USBCDC, I2CMode } from 'rp2040js';

const FLASH_BYTES = 2 * 1024 * 1024; // W25Q16JV
const SECTOR = 4096;
const PAGE = 256;
const CYCLE_NS = 8; // 125 MHz
// W25Q16JV datasheet: sector erase 45 ms typical (400 max), 64 KB block 150 ms (2000), page program 0.4 ms (3).
const TIMING = {
  typical: { sector: 45e6, block64: 150e6, page: 0.4e6 },
  max: { sector: 400e6, block64: 2000e6, page: 3e6 },
};
const BKPT = { erase: 0x10, program: 0x11, usbBoot: 0x12, noImage: 0x13, missing: 0x14 };
const WATCHDOG = 0x40058;
const WATCHDOG_LOAD = 0x04;

function parseArgs(argv) {
  const args = { timing: 'typical', blank: false };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (name === 'blank') args.blank = true;
    else args[name] = argv[++i];
  }
  for (const needed of ['flash', 'bootrom', 'pins']) {
    if (!args[needed]) throw new Error(`pico.mjs: --${needed} is required`);
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
// The board's wiring, from boards/rpi_pico/pins.py (host_tools/sabot/pico.py passes it): the inputs pulled up (buttons,
// key, jumper, beam, stop detector), the outputs watched (LED, buzzer, gate), the gate's pin and its open level, the
// beam's pin and its broken level.
const PINS = JSON.parse(args.pins);
const { inputs: INPUTS, watched: WATCHED, gate: GATE, gate_open: GATE_OPEN, beam: BEAM, beam_broken: BROKEN } = PINS;
const timing = TIMING[args.timing];
const events = [];
let control = null; // the control socket's client
function emit(event) {
  const line = JSON.stringify(event) + '\n';
  if (control) control.write(line);
  else events.push(line);
  if (args.log) process.stderr.write(line);
}

// The flash file: the whole chip. --blank starts from an erased chip; --image writes an image at offset 0 as a UF2
// drop does (the sectors it covers erased, then programmed), leaving the rest (the filesystem, the ring) as it is.
function openFlash() {
  if (args.blank || !fs.existsSync(args.flash)) fs.writeFileSync(args.flash, Buffer.alloc(FLASH_BYTES, 0xff));
  const fd = fs.openSync(args.flash, 'r+');
  const data = Buffer.alloc(FLASH_BYTES);
  fs.readSync(fd, data, 0, FLASH_BYTES, 0);
  if (args.image) {
    const image = fs.readFileSync(args.image);
    data.fill(0xff, 0, Math.ceil(image.length / SECTOR) * SECTOR);
    image.copy(data);
    fs.writeSync(fd, data, 0, Math.ceil(image.length / SECTOR) * SECTOR, 0);
  }
  return { fd, data };
}
const flash = openFlash();
function persist(offset, length) {
  fs.writeSync(flash.fd, flash.data, offset, length, offset);
}

// The DS3231: seconds since 1970 at this run's simulated time zero, the oscillator-stop flag (OSF), its control
// register and its hours' mode; kept beside the flash file. A chip never set starts with OSF up, as a new battery
// does. Its supply is the board's, its battery keeps it meanwhile: with EOSC (control bit 7) set its oscillator stops
// on the battery, so every power-up of the board finds OSF up (the time frozen meanwhile; the emulator's off time is
// none anyway). A time written with the hours' bit 6 puts it in 12-hour mode (bit 5 PM, hours 1-12), which it then
// reads in, as the chip does.
const DS3231_ADDRESS = 0x68;
const [DS3231_CONTROL, DS3231_STATUS, EOSC, OSF] = [0x0e, 0x0f, 0x80, 0x80];
const rtcPath = args.flash + '.rtc.json';
const rtc = {
  seconds: Date.UTC(2020, 0, 1) / 1000, osf: true, control: 0x1c, hour12: false, // the chip's power-on control
  ...(fs.existsSync(rtcPath) && !args.blank ? JSON.parse(fs.readFileSync(rtcPath, 'utf8')) : {}),
};
if (args.rtc) Object.assign(rtc, { seconds: Number(args.rtc), osf: false });
let elapsedNs = 0; // simulated time of the earlier boots of this process
let activeCycles = 0; // cycles the core executed, not slept (WFI/WFE), since the emulator started
const nowNs = () => elapsedNs + mcu.clock.nanos;
const rtcSeconds = () => rtc.seconds + nowNs() / 1e9;
function saveRtc() {
  fs.writeFileSync(rtcPath, JSON.stringify({ ...rtc, seconds: Math.floor(rtcSeconds()) }));
}
const bcd = (v) => ((v / 10) << 4) | v % 10;
const unbcd = (v) => (v >> 4) * 10 + (v & 15);
function rtcRegisters() {
  const d = new Date(Math.floor(rtcSeconds()) * 1000);
  const h = d.getUTCHours();
  const hours = rtc.hour12 ? 0x40 | (h >= 12 ? 0x20 : 0) | bcd(h % 12 || 12) : bcd(h);
  return [bcd(d.getUTCSeconds()), bcd(d.getUTCMinutes()), hours, ((d.getUTCDay() + 6) % 7) + 1,
    bcd(d.getUTCDate()), bcd(d.getUTCMonth() + 1), bcd(d.getUTCFullYear() - 2000)];
}
function hours24(reg) {
  return reg & 0x40 ? (unbcd(reg & 0x1f) % 12) + (reg & 0x20 ? 12 : 0) : unbcd(reg & 0x3f);
}
function attachDS3231(i2c) {
  let pointer = 0;
  let first = false;
  let regs = null; // the time registers as written in this transfer
  const other = new Uint8Array(0x13); // the alarms, aging and temperature registers: kept, unused
  i2c.onStart = () => i2c.completeStart();
  i2c.onConnect = (address, mode) => {
    first = mode === I2CMode.Write;
    i2c.completeConnect(address === DS3231_ADDRESS);
  };
  i2c.onWriteByte = (value) => {
    if (first) {
      pointer = value;
      first = false;
    } else if (pointer < 7) {
      regs = regs || rtcRegisters();
      regs[pointer++] = value;
    } else {
      if (pointer === DS3231_STATUS) rtc.osf = rtc.osf && (value & OSF) !== 0; // OSF: written 0 only
      else if (pointer === DS3231_CONTROL) rtc.control = value;
      else other[pointer % 0x13] = value;
      pointer++;
    }
    i2c.completeWrite(true);
  };
  i2c.onReadByte = () => {
    const value = pointer < 7 ? rtcRegisters()[pointer] : pointer === DS3231_STATUS ? (rtc.osf ? OSF : 0)
      : pointer === DS3231_CONTROL ? rtc.control : other[pointer % 0x13];
    pointer++;
    i2c.completeRead(value);
  };
  i2c.onStop = () => {
    if (regs) {
      const set = Date.UTC(2000 + unbcd(regs[6]), unbcd(regs[5] & 0x1f) - 1, unbcd(regs[4] & 0x3f),
        hours24(regs[2]), unbcd(regs[1] & 0x7f), unbcd(regs[0] & 0x7f)) / 1000;
      rtc.seconds = set - nowNs() / 1e9;
      rtc.hour12 = (regs[2] & 0x40) !== 0;
      regs = null;
    }
    saveRtc();
    i2c.completeStop();
  };
}

// The secure element on I2C0 beside the DS3231: boards/sim/element.py's model, run by the host's Python process
// (host_tools/sabot/pico.py) outside this one, its state in FLASH.element outside the emulated flash. Each bus event
// at an address other than the DS3231's crosses the descriptor --element-fd (one end of a socketpair the host made
// and this process inherited), synchronously: the core stands still until the model answered, as the bus does. A
// request: the event (ELEMENT_OP), its byte, the simulated time in µs (a float64, little-endian); the answer: one
// byte (an acknowledge as 1 or 0, or the byte read). No descriptor: nobody on those addresses (every byte NACKed).
const ELEMENT_OP = { start: 0x53, write: 0x57, read: 0x52, stop: 0x50, powerOff: 0x4f }; // 'S' 'W' 'R' 'P' 'O'
const TX_EMPTY = 1 << 4; // the I2C's raw interrupt bit
const elementFd = args['element-fd'] != null ? Number(args['element-fd']) : null;
const elementRequest = Buffer.alloc(10);
const elementAnswer = Buffer.alloc(1);
function elementEvent(op, value = 0) {
  if (elementFd === null) return 0;
  elementRequest[0] = op;
  elementRequest[1] = value;
  elementRequest.writeDoubleLE(nowNs() / 1000, 2);
  fs.writeSync(elementFd, elementRequest);
  for (;;) { // a blocking descriptor: readSync waits for the answer
    try {
      if (fs.readSync(elementFd, elementAnswer, 0, 1) === 1) return elementAnswer[0];
      throw new Error('the secure element\'s host closed the link');
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}

// The element's addresses on an rp2040js I2C bus, beside the device models already attached (the DS3231), which keep
// their own. Every bus event of the element's transfers reaches the model as it happens: it acknowledges (or not)
// its address and each byte written, gives each byte read, and sees the stop.
function attachElementLink(i2c, deviceAddresses) {
  const other = { onConnect: i2c.onConnect, onWriteByte: i2c.onWriteByte, onReadByte: i2c.onReadByte,
    onStop: i2c.onStop };
  let mine = false;
  i2c.onConnect = (address, mode) => {
    mine = !deviceAddresses.includes(address);
    if (!mine) return other.onConnect(address, mode);
    if (elementEvent(ELEMENT_OP.start, (address << 1) | (mode === I2CMode.Read ? 1 : 0))) {
      return i2c.completeConnect(true);
    }
    // No acknowledge. The abort flushes the TX FIFO, which the chip then reports empty; rp2040js 1.4.1 leaves
    // TX_EMPTY low, so pico-sdk's write would wait out its timeout (50 ms) and fail with ETIMEDOUT where the chip
    // fails at once.
    i2c.completeConnect(false);
    return i2c.setInterrupts(TX_EMPTY);
  };
  i2c.onWriteByte = (value) => {
    if (!mine) return other.onWriteByte(value);
    return i2c.completeWrite(elementEvent(ELEMENT_OP.write, value) === 1);
  };
  i2c.onReadByte = () => (mine ? i2c.completeRead(elementEvent(ELEMENT_OP.read)) : other.onReadByte());
  i2c.onStop = () => {
    if (!mine) return other.onStop();
    elementEvent(ELEMENT_OP.stop);
    mine = false;
    return i2c.completeStop();
  };
}

// USB CDC: the host's bytes wait here until the device has taken the last ones (rp2040js's FIFO holds 512), and
// after each boot until the host has enumerated the device again and a program has opened it: 2 s by default
// (--enumeration-ms; Linux's enumeration, udev's /dev/ttyACM0, mpremote's start), in simulated time, as the
// emulator runs slower than real time. The shoe's main.py needs about 1.2 s from reset to its loop: mpremote's
// Ctrl-C before that stops main.py for good (docs/pico-emulator.md).
const hostBytes = [];
const enumerationNs = Number(args['enumeration-ms'] ?? 2000) * 1e6;
let cdc = null;
let hostReadyNs = Infinity;
function pumpUsb() {
  if (!cdc || nowNs() < hostReadyNs) return;
  while (hostBytes.length && cdc.txFIFO.itemCount < cdc.txFIFO.size - 1) cdc.sendSerialByte(hostBytes.shift());
  answerRead();
}
// rp2040js's host answers the device's every OUT request at once, with no bytes when it has none: the port's USB
// stack then asks again, and the core never sleeps (an idle shoe cost as much as a busy one). A real host sends an
// OUT packet only when it has bytes: the request waits here until then.
let pendingRead = 0; // the size the device asked for, 0 when it asked for nothing
function answerRead() {
  if (!pendingRead || !cdc.txFIFO.itemCount) return;
  const buffer = new Uint8Array(Math.min(pendingRead, cdc.txFIFO.itemCount));
  for (let i = 0; i < buffer.length; i++) buffer[i] = cdc.txFIFO.pull();
  pendingRead = 0;
  mcu.usbCtrl.endpointReadDone(cdc.outEndpoint, buffer);
}
process.stdin.on('data', (chunk) => {
  for (const byte of chunk) hostBytes.push(byte);
});
process.stdin.on('end', () => shutdown(0));

// One boot of the chip: a fresh RP2040 (registers, SRAM), the same flash, clock and wiring.
const bootrom = fs.readFileSync(args.bootrom);
const inputLevels = new Map(INPUTS.map((pin) => [pin, true]));
const outputLevels = new Map(); // the last level each watched output was seen at, for events on changes only
let mcu = null;
let resetPending = null;
let started = null; // what the croupier does once the controller serves (its watchdog starts)
let serving = false; // whether it serves since the last boot
let scratch = new Uint32Array(8);
function boot(cause) {
  if (mcu) elapsedNs += mcu.clock.nanos;
  mcu = new RP2040();
  running.clear();
  serving = false;
  mcu.logger = { debug() {}, info() {}, warn() {}, error: (c, m) => args.log && process.stderr.write(`${c}: ${m} (pc ${mcu.core.PC.toString(16)})\n`) };
  mcu.loadBootrom(new Uint32Array(bootrom.buffer, bootrom.byteOffset, bootrom.length >> 2));
  mcu.flash.set(flash.data); // after loadBootrom, which erases rp2040js's flash
  const watchdog = mcu.peripherals[WATCHDOG];
  watchdog.scratchData.set(scratch);
  watchdog.reason = { watchdog: 1, reset: 2 }[cause] || 0;
  watchdog.onWatchdogTrigger = () => {
    scratch = watchdog.scratchData.slice();
    resetPending = watchdog.reason === 1 ? 'watchdog' : 'reset'; // its timer ran out, or software forced it
  };
  // rp2040js 1.4.1 schedules its decrementing watchdog's zero 2^32 ticks late: it would never bite. Its own alarm
  // is kept off; the count (LOAD, at 2 MHz: errata RP2040-E1) runs out on an alarm of ours.
  const control = watchdog.writeUint32.bind(watchdog);
  const bite = mcu.clock.createAlarm(() => {
    watchdog.reason = 1;
    watchdog.onWatchdogTrigger();
  });
  let load = 0;
  watchdog.writeUint32 = (offset, value) => {
    const was = watchdog.enable;
    control(offset, value);
    watchdog.alarm.enable = false;
    if (offset === WATCHDOG_LOAD) load = value & 0xffffff;
    if (!watchdog.enable) bite.cancel();
    else if (offset === WATCHDOG_LOAD || !was) bite.schedule(load * 500);
    if (!was && watchdog.enable) { // the shoe's loop began
      serving = true;
      emit({ ev: 'watchdog', t_us: nowNs() / 1000, cycles: activeCycles });
      const then = started;
      started = null;
      if (then) then();
    }
  };
  for (const [pin, level] of inputLevels) mcu.gpio[pin].setInputValue(level);
  outputLevels.clear(); // every pin an input again
  for (const pin of WATCHED) {
    mcu.gpio[pin].addListener(() => {
      const level = mcu.gpio[pin].outputValue ? 1 : 0;
      if (outputLevels.get(pin) === level) return;
      outputLevels.set(pin, level);
      const event = { ev: 'pin', pin, level, t_us: nowNs() / 1000 };
      if (pin === GATE) event.core = coreDoing();
      emit(event);
      if (pin === GATE && level === GATE_OPEN) moment('open');
      if (pin === GATE && level === GATE_OPEN && cards.length) slide(cards.shift());
    });
  }
  for (const pio of mcu.pio) clockPio(pio);
  cacheXip(mcu);
  for (const uart of mcu.uart) mendUart(uart);
  mcu.uart[0].onByte = () => {}; // the reader's TX line: unused
  attachDS3231(mcu.i2c[0]);
  if (cause === 'power' && rtc.control & EOSC) rtc.osf = true; // its oscillator stopped on the battery meanwhile
  if (cause === 'power') elementEvent(ELEMENT_OP.powerOff); // the element's supply is the board's
  attachElementLink(mcu.i2c[0], [DS3231_ADDRESS]);
  cdc = new USBCDC(mcu.usbCtrl);
  cdc.onSerialData = (data) => process.stdout.write(data);
  pendingRead = 0;
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint !== cdc.outEndpoint) return;
    pendingRead = size;
    answerRead();
  };
  hostReadyNs = Infinity;
  hostBytes.length = 0; // what the host sent the chip before it reset is lost with it
  cdc.onDeviceConnected = () => {
    hostReadyNs = nowNs() + enumerationNs;
    emit({ ev: 'usb', t_us: nowNs() / 1000 });
  };
  mcu.onBreak = onBreak;
  mcu.core.reset();
  emit({ ev: 'boot', cause, t_us: nowNs() / 1000 });
}

// rp2040js 1.4.1's UART raises its TX interrupt again on every register access (its TX FIFO is always empty),
// so the rp2 port's handler, which clears it, runs forever and the main loop starves. As on the chip, the TX
// interrupt is raised here when a byte was written (sent at once), and stays cleared once the handler clears it.
const UARTDR = 0x00;
const UARTTXINTR = 1 << 5;
function mendUart(uart) {
  uart.checkInterrupts = function checkInterrupts() {
    this.rp2040.setInterrupt(this.irq, !!(this.interruptStatus & this.interruptMask));
  };
  const write = uart.writeUint32.bind(uart);
  uart.writeUint32 = (offset, value) => {
    if (offset === UARTDR) uart.interruptStatus |= UARTTXINTR;
    write(offset, value);
  };
}

// The PIO blocks clocked with the core, one instruction a system clock cycle (the boards' programs run at clkdiv 1,
// without delays: rp2040js 1.4.1 ignores both). rp2040js runs its PIO on a timer of its own, unrelated to the
// simulated time, and steps the four machines of a block whether enabled or not; here only the enabled ones step,
// in the run loop, as many cycles as the core's instruction took, even while the core is stalled in a flash erase
// (stepFlashOp). A machine stalled on a WAIT, PULL or PUSH costs nothing: rp2040js re-checks it on the event that
// can release it (an input's change, a FIFO written or read, an IRQ flag), and it steps again from there. A WAIT
// whose condition already holds completes in its own cycle, as on the chip (rp2040js would take a second one).
const running = new Set(); // the enabled machines that are not stalled
const [SM_INSTR, SM_STRIDE, SET_PINS_LOW] = [0xd8, 0x18, 0xe000]; // SM0_INSTR, the next machine's, set(pins, 0)
function clockPio(pio) {
  pio.run = () => {}; // the CTRL register's write no longer starts rp2040js's timer
  const write = pio.writeUint32.bind(pio);
  pio.writeUint32 = (offset, value) => { // the core's writes (an instruction executed, a FIFO, CTRL) show at once
    write(offset, value);
    if (value === SET_PINS_LOW && offset >= SM_INSTR && (offset - SM_INSTR) % SM_STRIDE === 0) {
      emit({ ev: 'exec', pio: mcu.pio.indexOf(pio), sm: (offset - SM_INSTR) / SM_STRIDE, instr: value, t_us: nowNs() / 1000 });
    }
    for (const machine of pio.machines) watchMachine(machine);
    pio.checkChangedPins();
  };
  for (const machine of pio.machines) {
    const checkWait = machine.checkWait.bind(machine);
    machine.checkWait = () => {
      checkWait();
      watchMachine(machine);
    };
  }
}
function watchMachine(machine) {
  if (machine.enabled && !machine.waiting) running.add(machine);
  else running.delete(machine);
}
function stepPio(cycles) {
  for (let c = 0; c < cycles && running.size; c++) {
    for (const machine of running) {
      machine.step();
      if (machine.waiting) machine.checkWait(); // a WAIT already satisfied: done in this cycle
      else watchMachine(machine);
    }
    for (const pio of mcu.pio) pio.checkChangedPins();
  }
}

// Simulated time passing while the core is held (a flash erase or program, interrupts off, the core in the ROM):
// the inputs scheduled meanwhile come at their time, the PIO runs through it, the timers' alarms fire.
function hold(ns) {
  const end = nowNs() + ns;
  inFlashOp = true;
  if (timedBreak && timedBreak.card.break_when === 'flash') {
    const { card, opened } = timedBreak;
    timedBreak = null;
    at(nowNs() / 1000 + 1, () => breakBeam(card, opened, inFlashOp ? 'flash' : null));
  }
  while (schedule.length && schedule[0].tNs <= end) {
    if (schedule[0].tNs > nowNs()) mcu.clock.tick(schedule[0].tNs - nowNs());
    schedule.shift().action();
    if (resetPending) { // the power cut meanwhile: the chip stops in the operation
      inFlashOp = false;
      return;
    }
    while (running.size) {
      mcu.clock.tick(CYCLE_NS);
      stepPio(1);
    }
  }
  if (end > nowNs()) mcu.clock.tick(end - nowNs());
  inFlashOp = false;
}

// The XIP cache (RP2040 datasheet, 2.6.3.1): 16 KB, two-way set-associative, 8-byte lines, in front of the QSPI
// flash at 0x10000000 (cached, allocating) and 0x11000000 (cached, not allocating; 0x12000000 and up bypass it).
// rp2040js reads the flash as if it were SRAM, one cycle an access; here a miss stalls the core for the line's
// fill, as the silicon does: the pico-sdk's boot2 for the Pico's W25Q080-class flash (boot2_w25q080.S) runs the SSI
// in quad I/O continuous-read mode at clkdiv 2, so a fill is the address and mode bits on four lines (8 SCK), four
// dummy clocks and 8 bytes on four lines (16 SCK): 28 SCK, 56 system cycles. The ROM's flash_range_erase and
// flash_range_program flush the cache (flash_flush_cache) after each operation: so does the model. --xip-cache off
// leaves rp2040js's flat flash (no model).
const XIP_SETS = 1024; // 16 KB / 8-byte lines / 2 ways
const XIP_MISS_CYCLES = 56;
const xip = { on: args['xip-cache'] !== 'off', tags: new Int32Array(2 * XIP_SETS), lru: new Uint8Array(XIP_SETS),
  stall: 0, hits: 0, misses: 0 };
function flushXip() {
  xip.tags.fill(-1);
}
function xipAccess(address) {
  const region = address >>> 24;
  if (region !== 0x10 && region !== 0x11) return;
  const line = (address & 0xffffff) >>> 3;
  const set = line & (XIP_SETS - 1);
  const tag = line >>> 10;
  const way = set << 1;
  if (xip.tags[way] === tag) {
    xip.lru[set] = 1;
  } else if (xip.tags[way + 1] === tag) {
    xip.lru[set] = 0;
  } else {
    xip.misses++;
    xip.stall += XIP_MISS_CYCLES;
    if (region === 0x11) return; // XIP_NOALLOC: looked up, never filled
    const victim = xip.lru[set];
    xip.tags[way + victim] = tag;
    xip.lru[set] = victim ^ 1;
    return;
  }
  xip.hits++;
}
function cacheXip(chip) {
  flushXip();
  if (!xip.on) return;
  for (const name of ['readUint32', 'readUint16', 'readUint8']) {
    const read = chip[name].bind(chip);
    chip[name] = (address) => {
      xipAccess(address >>> 0);
      return read(address);
    };
  }
}

// The RP2040's ROM erases whole 4 KB sectors and programs whole 256-byte pages: its flash_range_erase and
// flash_range_program take an offset and a count that are multiples of those, and silently do something else
// with others. Here such a call stops the chip, named, as a bug in the image (bootrom.c).
function aligned(code, offset, count) {
  const [unit, name] = code === BKPT.erase ? [SECTOR, 'flash_range_erase'] : [PAGE, 'flash_range_program'];
  if (offset % unit === 0 && count % unit === 0 && offset + count <= FLASH_BYTES) return true;
  stopped = `${name}(0x${offset.toString(16)}, ${count} bytes): not whole ${unit}-byte units of the flash, which the `
    + 'RP2040\'s ROM requires (it would corrupt the flash)';
  return false;
}

let stopped = null;
function onBreak(code) {
  const r = mcu.core.registers;
  const stall = xip.stall;
  if ((code === BKPT.erase || code === BKPT.program) && !aligned(code, r[0], code === BKPT.erase ? r[1] : r[2])) {
    return;
  }
  if (code === BKPT.erase) {
    const [offset, count, blockSize] = [r[0], r[1], r[2]];
    flash.data.fill(0xff, offset, offset + count);
    mcu.flash.fill(0xff, offset, offset + count);
    persist(offset, count);
    const blocks = blockSize === 65536 && offset % 65536 === 0 ? Math.floor(count / 65536) : 0;
    const began = nowNs() / 1000;
    const lasts = blocks * timing.block64 + ((count - blocks * 65536) / SECTOR) * timing.sector;
    if (forcing.length && outputLevels.get(GATE) !== GATE_OPEN) forceDuring(forcing.shift(), began, lasts / 1000);
    moment('erase');
    hold(lasts);
    flushXip();
    emit({ ev: 'flash', op: 'erase', offset, count, began_us: began, t_us: nowNs() / 1000 });
  } else if (code === BKPT.program) {
    const [offset, data, count] = [r[0], r[1], r[2]];
    for (let i = 0; i < count; i++) {
      const value = flash.data[offset + i] & mcu.readUint8(data + i);
      flash.data[offset + i] = value;
      mcu.flash[offset + i] = value;
    }
    persist(offset, count);
    xip.stall = stall; // the emulator's reads of the page's data are not the core's
    hold(Math.ceil(count / PAGE) * timing.page);
    flushXip();
  } else if (code === BKPT.noImage) {
    stopped = 'no image in flash: the ROM would wait for a UF2 over USB';
  } else if (code === BKPT.usbBoot) {
    stopped = 'the image asked for USB boot (reset_usb_boot)';
  } else if (code === BKPT.missing) {
    const c = r[0];
    stopped = `the image looked up ROM function '${String.fromCharCode(c & 0xff, c >> 8)}', which this ROM lacks`;
  } else {
    stopped = `breakpoint ${code} at ${(mcu.core.PC - 2).toString(16)}`;
  }
}

// What the core is doing, for the gate's events: in a flash erase or program (held in the ROM, interrupts off), in
// a garbage collection (from gc_collect_start's entry to gc_collect_end's return: --gc-start), in USB's interrupt
// handler (USBCTRL_IRQ, exception 16 + 5), in another handler (its exception number), or none of those.
let inFlashOp = false;
let inGc = false;
const USBCTRL_EXCEPTION = 16 + 5;
function coreDoing() {
  const exception = mcu.core.IPSR;
  return { flash: inFlashOp, gc: inGc, usb: exception === USBCTRL_EXCEPTION, exception };
}

// The heap after each garbage collection (--gc-end, the address of the image's gc_collect_end, and --heap-area,
// MP_STATE_MEM(area)'s: sabot/pico.py finds them in firmware.elf): the allocation table's free blocks counted
// when gc_collect_end returns, as gc.mem_free() counts them, each a `gc` event.
const gcEnd = args['gc-end'] ? Number(args['gc-end']) : -1;
const gcStart = args['gc-start'] ? Number(args['gc-start']) : -1;
let gcReturn = -1;
function heapAfterCollect() {
  gcReturn = -1;
  inGc = false;
  const area = Number(args['heap-area']);
  const [table, tableBytes] = [mcu.readUint32(area), mcu.readUint32(area + 4)];
  const [start, end] = [mcu.readUint32(area + 12), mcu.readUint32(area + 16)];
  let free = 0;
  for (let i = 0; i < tableBytes; i++) {
    const entries = mcu.readUint8(table + i);
    for (let shift = 0; shift < 8; shift += 2) if (((entries >> shift) & 3) === 0) free++;
  }
  emit({ ev: 'gc', free: free * 16, heap: end - start, t_us: nowNs() / 1000 });
}

// A cheat's cards pulled through the locked mouth while the core erases a sector (interrupts off: the GPIO's edges
// coalesce into one): the `force` command (or a croupier's {force_in_erase} step) arms n cards for the next erase
// that begins with the gate locked; they break and clear the beam at even intervals within it. The `forced` event
// says when, and whether the gate was locked at each break.
const forcing = []; // the counts armed, one an erase
let forcedDue = 0; // the armed counts not yet forced, for the croupier's {forced} step
function forceDuring(cards, beganUs, lastsUs) {
  const spacing = lastsUs / (cards + 1);
  const dark = Math.min(4000, spacing / 3);
  const locked = [];
  for (let k = 1; k <= cards; k++) {
    at(beganUs + k * spacing, () => {
      locked.push(outputLevels.get(GATE) !== GATE_OPEN);
      setPin(BEAM, BROKEN);
    });
    at(beganUs + k * spacing + dark, () => {
      setPin(BEAM, BROKEN ? 0 : 1);
      if (k < cards) return;
      forcedDue--;
      emit({ ev: 'forced', cards, locked, erase_began_us: beganUs, erase_us: lastsUs, t_us: nowNs() / 1000 });
      const then = afterForced;
      afterForced = null;
      if (then && !forcedDue) then();
    });
  }
}
let afterForced = null; // the croupier's next step once the forced cards due came

// Power cuts timed to a moment (the croupier's {cut_when}): the gate's opening for a card ('open'), a card's beam
// break ('break'), a flash erase's start ('erase'), delay_us after it; each hook fires once.
const cutHooks = { open: [], break: [], erase: [] };
function moment(kind) {
  const hooks = cutHooks[kind];
  while (hooks.length) hooks.shift()();
}

// Cards waiting at the gate: when it opens, the first slides out, as a croupier's card does: the reader's line
// (its identity, or none for a card the reader missed), then the beam broken and cleared again.
const cards = [];
function slide(card) {
  const t = nowNs() / 1000;
  card.slid = true;
  if (card.line != null) at(t + card.read_us, () => feedReader(card.line + '\n'));
  if (card.break_when) { // the card held at the mouth until the core is busy so (breakWhen), break_us at most
    timedBreak = { card, opened: t };
    at(t + card.break_us, () => { if (timedBreak && timedBreak.card === card) breakBeam(card, t, null); });
  } else {
    at(t + card.break_us, () => breakBeam(card, t, null));
  }
}
function breakBeam(card, opened, busy) {
  if (timedBreak && timedBreak.card === card) timedBreak = null;
  const broken = nowNs() / 1000;
  setPin(BEAM, BROKEN);
  moment('break');
  at(broken + card.dark_us, () => {
    setPin(BEAM, BROKEN ? 0 : 1);
    emit({ ev: 'card', id: card.id, opened_us: opened, broken_us: broken, busy, t_us: nowNs() / 1000,
      cycles: activeCycles });
    if (card.cleared) card.cleared();
  });
}
// A card whose beam break waits for the core to be busy (the `card` command's break_when): in a flash erase or
// program ('flash', a microsecond after it began), in a garbage collection ('gc') or in USB's interrupt handler
// ('usb'), checked at each of the core's instructions; break_us after the gate opened it breaks anyway (busy null).
let timedBreak = null;
function breakWhen() {
  const { card, opened } = timedBreak;
  const doing = coreDoing();
  if (doing[card.break_when]) breakBeam(card, opened, card.break_when);
}

// A croupier in simulated time (the `deal` command): steps run one after the other, each once the last one ended,
// with no round trip to the host between them, so a whole shoe deals in a fixed simulated timeline. Steps:
// {deck: [lines]} (the shoe's cards, in order), {power_cycle: true} (ends when the controller serves again),
// {cut_in_us} (a power cut that long after, the next steps going on meanwhile), {cut_when: open|break|erase,
// delay_us, within_us} (a cut delay_us after the gate's next opening, the next beam break or the next erase's
// start, within_us at the latest: its `cut` event says whether it came at the moment), {force_in_erase: n} (n cards
// pulled through the locked mouth during the next erase, the next steps going on meanwhile), {forced: true} (ends
// once those came), {served: true} (ends once the
// cuts due came and the controller serves since the last boot), {press: pin} (a button pressed gap_us after the last step ended
// and held press_us), {press: pin, draw: true, read: bool} (the dealer's request with the deck's next card at the
// gate: it ends when the card cleared the beam, or, the gate still shut no_card_us after the release, with the
// card taken back), {wait_us}. The reply: cards slid out and requests refused.
function deal(command, done) {
  const { steps, gap_us: gap = 40000, press_us: hold = 40000, no_card_us: noCard = 60000 } = command;
  let deck = [];
  let cutsDue = 0;
  let step = 0;
  const result = { dealt: 0, refused: 0 };
  dealing++;
  const next = () => {
    if (step === steps.length) {
      dealing--;
      return done({ ...result, cycles: activeCycles, xip_hits: xip.hits, xip_misses: xip.misses });
    }
    const s = steps[step++];
    const t = nowNs() / 1000 + gap;
    if (s.deck) {
      deck = s.deck.slice();
      return next();
    }
    if (s.wait_us != null) return at(nowNs() / 1000 + s.wait_us, next);
    if (s.power_cycle) {
      resetPending = 'power';
      started = next; // on with the steps once the controller serves again
      return undefined;
    }
    if (s.cut_in_us != null) { // the power cut that much later, whatever the steps after this one are doing
      cutsDue++;
      at(nowNs() / 1000 + s.cut_in_us, () => {
        cutsDue--;
        resetPending = 'power';
      });
      return next();
    }
    if (s.cut_when) { // a power cut delay_us after the next such moment, within_us at the latest; on meanwhile
      cutsDue++;
      let done = false;
      const cut = (hit) => {
        if (done) return;
        done = true;
        cutsDue--;
        resetPending = 'power';
        emit({ ev: 'cut', when: s.cut_when, hit, t_us: nowNs() / 1000 });
      };
      cutHooks[s.cut_when].push(() => at(nowNs() / 1000 + (s.delay_us || 0), () => cut(true)));
      at(nowNs() / 1000 + (s.within_us ?? 2e6), () => cut(false));
      return next();
    }
    if (s.force_in_erase != null) { // a cheat's cards at the next erase with the gate locked; on meanwhile
      forcing.push(s.force_in_erase);
      forcedDue++;
      return next();
    }
    if (s.forced) { // once the cheat's cards armed came
      if (!forcedDue) return next();
      afterForced = next;
      return undefined;
    }
    if (s.served) { // once the cuts due came and the controller serves after the last boot
      if (serving && !cutsDue) return next();
      started = next;
      return undefined;
    }
    const card = s.draw && deck.length ? { id: `deal-${step}`, line: s.read === false ? null : deck[0],
      read_us: 2000, break_us: 8000, dark_us: 4000 } : null;
    let released = false;
    let cleared = false;
    const end = () => { if (released && (!card || cleared)) next(); };
    if (card) {
      card.cleared = () => {
        deck.shift();
        result.dealt++;
        cleared = true;
        end();
      };
      cards.push(card);
    }
    at(t, () => {
      setPin(s.press, 0);
      emit({ ev: 'press', pin: s.press, t_us: nowNs() / 1000 }); // when the croupier's button went down
    });
    at(t + hold, () => {
      setPin(s.press, 1);
      released = true;
      if (!card) return end();
      at(t + hold + noCard, () => {
        if (card.slid) return;
        cards.splice(cards.indexOf(card), 1);
        result.refused++;
        cleared = true;
        end();
      });
      return end();
    });
  };
  next();
}

// Scheduled inputs, in simulated time.
const schedule = [];
function at(tUs, action) {
  schedule.push({ tNs: tUs * 1000, action });
  schedule.sort((a, b) => a.tNs - b.tNs);
}
function feedReader(bytes) {
  for (const b of Buffer.from(bytes)) mcu.uart[0].feedByte(b);
}
// An input's level reaches the chip's logic through its 2-flop synchroniser (RP2040 datasheet, 3.4.4 and 2.19.4):
// two system clock cycles after the pin's edge, for the PIO and the GPIO interrupts alike.
const SYNC_NS = 2 * CYCLE_NS;
function setPin(pin, level) {
  inputLevels.set(pin, !!level);
  const chip = mcu;
  at((nowNs() + SYNC_NS) / 1000, () => { if (chip === mcu) mcu.gpio[pin].setInputValue(!!level); });
}
function handle(command) {
  const reply = (extra) => emit({ ev: 'reply', id: command.id, t_us: nowNs() / 1000, ...extra });
  const action = {
    pin: () => setPin(command.pin, command.level),
    uart: () => feedReader(Buffer.from(command.hex, 'hex')),
    card: () => cards.push({ read_us: 2000, break_us: 8000, dark_us: 4000, ...command }),
    uncard: () => cards.pop(),
    force: () => { forcing.push(command.cards); forcedDue++; },
    power_cycle: () => { resetPending = 'power'; },
    cut: () => shutdown(0), // the power gone for good: the flash file is as the last operation left it
    time: () => {},
    rtc: () => { // the module as found: its time (osf cleared), or its control register and hours' mode
      if (command.seconds != null) Object.assign(rtc, { seconds: command.seconds - nowNs() / 1e9, osf: false });
      if (command.control != null) rtc.control = command.control;
      if (command.hour12 != null) rtc.hour12 = !!command.hour12;
      saveRtc();
    },
  }[command.cmd];
  if (command.cmd === 'deal') return deal(command, reply);
  if (!action) return reply({ error: `unknown command ${command.cmd}` });
  if (command.at_us == null) {
    action();
    reply({});
  } else {
    at(command.at_us, () => { action(); reply({}); });
  }
}
if (args.control) {
  if (fs.existsSync(args.control)) fs.unlinkSync(args.control);
  net.createServer((socket) => {
    control = socket;
    for (const line of events.splice(0)) socket.write(line);
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.trim()) handle(JSON.parse(line));
      }
    });
    socket.on('close', () => { control = null; });
  }).listen(args.control);
}

function shutdown(code) {
  if (mcu) saveRtc();
  fs.closeSync(flash.fd);
  process.exit(code);
}
process.on('SIGTERM', () => shutdown(0));

// The run loop: instructions in slices, yielding to I/O between them; a sleeping core skips to its next alarm
// or to the next scheduled input, but no faster than a quarter of real time: the host's programs (mpremote,
// sabot) answer in wall time, and a Pico idle at its REPL would otherwise live through the watchdog's 5 s between
// two of their bytes (a busy core runs 4-10 times slower than real time anyway). While the croupier deals (no
// host in the loop) a sleeping core skips at once.
const SLICE = 200000;
const HOST_PACE = 0.25; // simulated time a sleeping core lives through per unit of wall time, the host in the loop
const IDLE_BURST_NS = 10e6; // the sleep a slice may catch up on after the host held the emulator up
let wallNs = performance.now() * 1e6;
let dealing = 0;
function run() {
  const { core } = mcu;
  const wall = performance.now() * 1e6;
  let idleNs = Math.min((wall - wallNs) * HOST_PACE, IDLE_BURST_NS);
  wallNs = wall;
  for (let i = 0; i < SLICE; i++) {
    if (schedule.length && schedule[0].tNs <= nowNs()) {
      schedule.shift().action();
      continue;
    }
    if (resetPending) {
      const cause = resetPending;
      resetPending = null;
      boot(cause);
      return setImmediate(run);
    }
    if (stopped) {
      emit({ ev: 'stopped', reason: stopped, t_us: nowNs() / 1000 });
      process.stderr.write(`pico: ${stopped}\n`);
      return;
    }
    if (core.waiting) {
      const clock = mcu.clock;
      let skip = clock.nextAlarm ? clock.nanosToNextAlarm : 1e6;
      if (schedule.length) skip = Math.min(skip, schedule[0].tNs - nowNs());
      skip = running.size ? CYCLE_NS : Math.max(skip, CYCLE_NS);
      if (!dealing) {
        if (idleNs <= 0) break;
        skip = Math.min(skip, idleNs);
        idleNs -= skip;
      }
      clock.tick(skip);
      stepPio(1);
      i += skip / CYCLE_NS;
    } else {
      if (timedBreak) breakWhen();
      if (core.PC === gcReturn) heapAfterCollect();
      else if (core.PC === gcEnd) gcReturn = core.registers[14] & ~1;
      else if (core.PC === gcStart) inGc = true;
      const cycles = core.executeInstruction() + xip.stall;
      xip.stall = 0;
      activeCycles += cycles;
      const end = nowNs() + cycles * CYCLE_NS;
      if (!running.size && !(schedule.length && schedule[0].tNs < end)) mcu.clock.tick(cycles * CYCLE_NS);
      else { // an input due, or a machine running, within the instruction's cycles: each at its own cycle
        for (let c = 0; c < cycles; c++) {
          mcu.clock.tick(CYCLE_NS);
          stepPio(1);
          while (schedule.length && schedule[0].tNs <= nowNs()) schedule.shift().action(); // seen from the next
        }
      }
    }
  }
  pumpUsb();
  if (!dealing && idleNs <= 0) setTimeout(run, 1);
  else setImmediate(run);
}
boot('power');
run();
