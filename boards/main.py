# main.py of every board: MicroPython runs it after boot.py. The gate is already locked (boot.py).
from firmware.startup import start

start()
