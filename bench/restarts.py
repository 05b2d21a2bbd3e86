"""What restarts cost the secure element (issue 38): a shoe restarted again and again, its element's counter read after
each power-up, on the sim board with the element's model (as tests/host/test_restarts.py); the counts a day of a
shoe restarted every 8 s, from the counts a restart spends. A count spent is gone: the counter stops at 2,097,151."""

import tempfile

from bench.report import figure

RESTARTS = 20
EVERY_S = 8
DAY_S = 86400
COUNTER_MAX = 2097151


def counts_per_restart(folder, restarts=RESTARTS):
    """The element's counts spent, on average, by each of restarts power-ups of an idle shoe after its first."""
    from boards.mcu.atecc import ATECC
    from boards.sim.board import SimBoard
    from boards.sim.element import DEVELOPMENT_SEED, SimElement
    from firmware.checkpoints import Checkpoints
    from firmware.records import BOOT_RESTART
    from firmware.storage import FileStorage
    from tests.core.test_element import Bus

    chip = SimElement(DEVELOPMENT_SEED, folder + "/element")
    bus = Bus(chip)
    driver = ATECC(bus, bus.sleep_ms)
    board = SimBoard(FileStorage(folder + "/journal"))
    board.checkpoints = Checkpoints(folder + "/journal", driver, board.sabot)
    board.key = board.checkpoints.key()
    board.power_on()
    first = driver.counter(0)
    for _ in range(restarts):
        board.power_cut()
        board.power_on(BOOT_RESTART)
    return (driver.counter(0) - first) / restarts


def measure(ctx):
    with tempfile.TemporaryDirectory() as folder:
        each = counts_per_restart(folder)
    per_day = each * DAY_S / EVERY_S
    how = "an idle shoe on the sim board with the element's model restarted %d times; x %d restarts a day" % (
        RESTARTS, DAY_S // EVERY_S)
    return {"restarts.counts_per_restart": figure(each, "counts", how),
            "restarts.counts_per_day_every_8s": figure(per_day, "counts", how + " (one every %d s)" % EVERY_S)}
