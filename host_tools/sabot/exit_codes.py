"""What each `sabot` command's exit status means, as its code returns it: 0, 1 (None: never) and 2, keyed by the
command's words ("" the top). cli.with_exit_codes() puts them in every --help; tests/host/test_workstation.py holds the
table to the parser's tree."""

MISTAKE = "a mistake in the command line or its input, said in one line"
EXIT_CODES = {
    "": ("the command did what it says", "findings, a difference, or a shoe that refused or is in fault (each "
         "command's --help says which)", MISTAKE),
    "sim": ("the scenario played, its journal and trace written", None, MISTAKE + " (the scenario, the --log folder)"),
    "log": ("clean, or written", "findings, or a journal whose integrity is broken", "unusable input"),
    "log verify": ("clean", "findings", "unusable input"),
    "log export": ("written, the journal intact", "written, but the journal's integrity is broken (said on stderr)",
                   "unusable input"),
    "log show": ("written, the journal intact", "written, but the journal's integrity is broken (said on stderr)",
                 "unusable input"),
    "key": ("done", None, MISTAKE), "key new": ("the key file written", None, "the file exists or cannot be written"),
    "key enrol": ("the shoe enrolled, the registry written", None, "the shoe could not be read or refused, or "
                  + MISTAKE),
    "key export": ("the registry printed", None, "an unreadable registry"),
    "key code": ("the enrolment code written to the shoe and printed", None, "the shoe holds a code or a casino key "
                 "already (kept), it could not be reached, or the label file exists"),
    "key signer": ("the signing key pair written", None, "a file exists or cannot be written"),
    "key sign": ("the registry signed as the casino (REGISTRY.sig written)", None, "no registry or signing key, or "
                 + MISTAKE),
    "key countersign": ("the registry countersigned as the approver", None, "no casino signature that verifies "
                        "over the registry as it is (or not a --registry-signer's), no signing key, or " + MISTAKE),
    "element": ("done", None, MISTAKE),
    "element provision": ("the element provisioned and locked", None, "refused: nothing changed"),
    "vboard": ("stopped by Ctrl-C", "the emulated Pico stopped by itself", MISTAKE + " (the build, --fs)"),
    "deploy": ("every file copied and checked", "files that differ from the bundle (named)", "no device, another "
               "board, or " + MISTAKE),
    "pull-log": ("the journal pulled with its receipt", "the shoe is in fault: nothing pulled", "no shoe answering, "
                 "or " + MISTAKE),
    "status": ("the shoe's state said (a fault among it)", None, "no shoe answering, or " + MISTAKE),
    "firmware": ("done: a bundle written, or MATCH", "MISMATCH", MISTAKE),
    "firmware dist": ("the bundle written", None, MISTAKE),
    "firmware verify": ("MATCH", "MISMATCH: the files that differ named, or a shoe in fault", "the shoe or the "
                        "bundle could not be "
                        "read, or " + MISTAKE),
    "seance": ("done, the record it wrote named", "the shoe refused or is in fault", "no shoe answering, or "
               + MISTAKE),
    "number": ("done", "the shoe refused or is in fault", "no shoe answering, or " + MISTAKE),
    "number set": ("set (or already so), the shoe restarted", "the shoe refused (an alarm stands, a séance is "
                   "open: nothing changed) or is in fault", "no shoe answering, a number the registry holds under "
                   "another element (without --replace), or " + MISTAKE),
    "clock": ("done", "the shoe refused or is in fault", "no shoe answering, or " + MISTAKE),
    "clock set": ("set, the shoe restarted", "the shoe refused (a time behind its journal, or more than a day "
                  "ahead of it without --force: nothing changed) or is in fault", "no shoe answering, or "
                  + MISTAKE),
    "report": ("the report written (its verdict, conforme or not, on its first line)", None,
               "unusable input, or a file that cannot be written"),
    "web": ("the page written (and served until Ctrl-C)", None, "the page cannot be written or served"),
    "fleet": ("clean, or done", "findings, or a journal refused", "unusable input or database"),
    "fleet ingest": ("every journal ingested", "a journal refused (named), the others ingested",
                     "unusable input or database"),
    "fleet ingest-ledger": ("the ledger ingested, in agreement", "findings", "unusable input or database"),
    "fleet export": ("the Parquet files written", None, "unusable database, or an existing folder"),
    "fleet check": ("clean", "findings", "unusable input or database"),
    "fleet report": ("the pages written", None, "unusable database, or an existing folder"),
    "fleet synth": ("the synthetic fleet written", None, MISTAKE),
    "cagnotte": ("in agreement, or written", "findings", "unusable input"),
    "cagnotte due": ("every coup's levy given", "findings, coups without stakes or stakes left over, or a "
                     "development journal", "unusable input"),
    "cagnotte check": ("the ledger agrees with the journal", "findings", "unusable input"),
    "cagnotte mises": ("the template written, the journal intact", "the template written, but the journal has "
                       "findings or is a development journal (said on stderr)", "unusable input"),
    "cagnotte carnet": ("the carnet written, no findings", "the carnet written, with findings", "unusable input"),
    "ouverte": ("written, the journal clean", "findings", "unusable input"),
    "ouverte declaration": ("the declaration written, the journal clean", "written, but the journal has findings or "
                            "is a development journal", "unusable input, or an existing file"),
    "nuit": ("every shoe conforme: pulled, verified, ingested, reported", "a shoe in fault, silent or with "
             "findings, or the fleet's findings (named first in the summary)", "unusable input: no registry, a bad "
             "folder, date or --port"),
    "pit": ("done", "a recalled coup's journal is not intact", MISTAKE),
    "pit follow": ("stopped (Ctrl-C, --seconds): every finding was raised as it came", None, "unusable input: the "
                   "registry, the database, the casino's name, --listen, the pages' port"),
    "pit recall": ("the coup said, its journal intact", "the coup said, but its journal's integrity is broken",
                   "no such table, séance or coup, or unusable input"),
    "doctor": ("every required check passes", "something to fix (each with its command)", MISTAKE),
    "completion": ("the script printed", None, MISTAKE),
}
EXIT_CODES["night"] = EXIT_CODES["nuit"]  # its alias: one parser, one epilog
