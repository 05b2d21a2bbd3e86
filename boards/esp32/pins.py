"""ESP32 (ESP32-WROOM-32E, DevKitC) pin map: GPIO numbers and active levels, data only (README.md has the wiring).
No strapping pin (0, 2, 5, 12, 15) and no pin that pulses at boot drives an output. boot.py repeats GATE and
GATE_LOCKED as literals; tests/host/test_board_pins.py checks they agree."""

GATE = 25  # gate drive into the interlock, then the solenoid's MOSFET
GATE_LOCKED = 0  # de-energised
BEAM = 34  # mouth break-beam, open collector (input-only pin, external pull-up)
BEAM_BROKEN = 0
STOP_DETECT = 35  # stop-card detector, open collector (optional; input-only pin, external pull-up)
STOP_ACTIVE = 0

NO_MORE_BETS = 32
COUP_END = 33
BURN = 27
DRAW = 14  # the dealer's card request pad at the mouth
LOAD = 13  # shoe loaded
SEANCE = 4  # séance opened (supervisor panel)
CLEAR = 23  # supervisor key switch
MAINTENANCE = 19  # jumper to ground, read at start: the controller stays stopped
PRESSED = 0  # every button, key and the jumper close to ground

LED = 26
BUZZER = 18

READER_UART = 2  # card reader (optional)
READER_TX = 17
READER_RX = 16
RTC_I2C = 0  # DS3231
RTC_SDA = 21
RTC_SCL = 22
ELEMENT_ADDRESS = 0x35  # the secure element on the DS3231's bus: board.json's "element" (its part and address)
