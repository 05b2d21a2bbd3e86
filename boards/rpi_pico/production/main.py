# main.py of the shoe's production Pico image, frozen (the filesystem's main.py never runs): the shoe's loop serving
# its protocol on USB (boards/rpi_pico/board.py's production()), which never returns. MicroPython lets Ctrl-C in
# again as it starts this file: it is off again at the first instruction, inside the try, so that not even a Ctrl-C
# in that instant reaches the REPL. Any way out (an exception, a command that restarts the shoe) locks the gate and
# resets the chip through its watchdog: the REPL, which follows main.py, is never reached.
try:
    import micropython

    micropython.kbd_intr(-1)
    from boards.rpi_pico.board import production

    production()
finally:
    from boards.rpi_pico.board import restart

    restart()
