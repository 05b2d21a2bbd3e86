"""Article 61's casino day, for the shoe (firmware/ouverte.py) and the verifier alike. Apart from
firmware/records.py: a shoe that never deals banque ouverte loads none of these names, and records.py's globals
stay in a table of 73 slots rather than 97 (H-SIM: the sim's whole shoe in a 65 KB heap)."""

from firmware.compat import const

# From 06:00 UTC (07:00 or 08:00 in Paris, when no casino deals) to 06:00 the next day, so that a séance after
# midnight counts in the evening's day.
DAY_FROM = const(21600)  # seconds after midnight UTC
DAY = const(86400)
CANDIDATES_MAX = const(8)  # players drawn among at once
DAY_OPEN = const(4)  # R_OUVERTE_DAY's card: the day's last séance at banque ouverte is open
DAY_UNCLOSED = const(8)  # it ended with no close (another séance opened): its break never began
