"""The sim's receipt (runner --receipt): the simulated shoe's signed head written into JOURNAL/receipt.json, as
`sabot pull-log` writes a shoe's. The sim has no inspector to draw a nonce: its nonce is the scenario file's SHA-256.
Apart from the runner, so that a run without --receipt, the 65 KB one among them (H-SIM), does not load it."""

from hashlib import sha256

from firmware.receipt import receipt


def write_receipt(board, scenario, log):
    with open(scenario, "rb") as f:
        nonce = sha256(f.read()).digest()
    with open(log + "/receipt.json", "w") as f:
        f.write(receipt(board.shell.journal, nonce) + "\n")
