"""Raspberry Pi Pico pin map: GPIO numbers and active levels, data only (README.md has the wiring), declared here
once: the firmware freezes it, the emulated Pico is wired from it (host_tools/sabot/pico.py passes it to
tools/pico/pico.mjs), the host's croupier presses its buttons. boot.py and _boot.py repeat GATE and GATE_LOCKED as
literals (the gate locked before any import); tests/host/test_board_pins.py checks they agree."""

GATE = 16  # gate drive into the interlock, then the solenoid's MOSFET
GATE_LOCKED = 0  # de-energised
BEAM = 17  # mouth break-beam, open collector
BEAM_BROKEN = 0
STOP_DETECT = 18  # stop-card detector, open collector (optional)
STOP_ACTIVE = 0

NO_MORE_BETS = 6
COUP_END = 7
BURN = 8
DRAW = 9  # the dealer's card request pad at the mouth
LOAD = 10  # shoe loaded
SEANCE = 11  # séance opened (supervisor panel)
CLEAR = 12  # supervisor key switch
MAINTENANCE = 13  # jumper to ground, read at start: the controller stays stopped
PRESSED = 0  # every button, key and the jumper close to ground

LED = 14
BUZZER = 15

READER_UART = 0  # card reader (optional)
READER_TX = 0
READER_RX = 1
RTC_I2C = 0  # DS3231
RTC_SDA = 4
RTC_SCL = 5
ELEMENT_ADDRESS = 0x35  # the secure element on the DS3231's bus: board.json's "element" (its part and address)
