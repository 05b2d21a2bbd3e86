# main.py of the virtual board (`sabot vboard`): the sim board's own, as its start() is not the model's
# (boards/sim/board.py) but the virtual board's, which plays and serves the sim board (boards/sim/virtual_board.py).
from boards.sim.virtual_board import start
from firmware.startup import load_config

start(load_config())
