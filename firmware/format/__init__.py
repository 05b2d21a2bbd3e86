"""The formats the shoe writes and its readers read (issue 34): what the host's readers (verify, report, log show and
export, fleet ingest) import of the firmware, and nothing of its controller, shell or boards (tests/host/
test_imports.py, the readers' test). Several small modules, so that a shoe loads only what it uses: words.py, the one
table of words for the shoe's numbers, is the readers' and the simulator's alone; the byte layouts join it step by
step (checkpoint.py, the checkpoint file's entries; firmware/layout.py's, for now)."""
