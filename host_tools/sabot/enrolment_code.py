"""The factory's one-time enrolment code (issue 38): printed on a new shoe's label, its key written to the shoe's
flash at the factory's bench (firmware/startup.py's ENROLMENT_KEY); a production shoe takes its first casino key only
under it, and then forgets it (docs/keys.md, "Le code d'enrôlement"). A stranger with the cable and without the label
enrols nothing.

The code: 20 characters of Crockford's base32 (100 random bits) in groups of four, `7K2M-Q9XD-...`, read back
whatever the case, the dashes or spaces, O for 0 and I or L for 1. Its key: SHA-256 of a label and the 20 characters.
"""

import secrets
from hashlib import sha256

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's: no I, L, O, U
LENGTH = 20
_LABEL = b"sabot enrolment code v1 "
_READ_AS = {"O": "0", "I": "1", "L": "1"}


def new_code():
    """A new code, as the label prints it."""
    chars = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    return "-".join(chars[at:at + 4] for at in range(0, LENGTH, 4))


def normalised(code):
    """The code's 20 characters as typed from a label (case, dashes and spaces aside); ValueError when it is not
    one."""
    chars = "".join(_READ_AS.get(c, c) for c in code.upper() if c not in "- \t")
    if len(chars) != LENGTH or any(c not in ALPHABET for c in chars):
        raise ValueError("%r is not an enrolment code (the label's %d characters, in groups of four: XXXX-XXXX-...)"
                         % (code, LENGTH))
    return chars


def code_secret(code):
    """The 32-byte key the shoe holds for its code: what its first enrolment is authenticated and wrapped under."""
    return sha256(_LABEL + normalised(code).encode()).digest()


def write_label(path, code):
    """The label of a virtual board or an emulated Pico (FS.code, FLASH.code beside it), as the factory prints it on
    a shoe: the code alone on its line, so `--code "$(cat shoe.code)"` reads it."""
    with open(path, "w") as f:
        f.write(code + "\n")


def key_text(code):
    """What the shoe's keys/enrolment.key holds for code (firmware/startup.py's ENROLMENT_KEY)."""
    return code_secret(code).hex() + "\n"


# A board's file written over mpremote's exec: its folders made, the file whole or not at all (a new name renamed).
PUT = """import os
def put(path, text):
    at = ''
    for part in path.split('/')[:-1]:
        at += part
        try:
            os.mkdir(at)
        except OSError:
            pass
        at += '/'
    with open(path + '.new', 'w') as f:
        f.write(text)
    os.rename(path + '.new', path)
"""

INSTALL = PUT + """keys = os.listdir('keys') if 'keys' in os.listdir() else ()
if 'enrolment.key' in keys or 'casino.key' in keys:
    print('sabot-code held')
else:
    put('keys/enrolment.key', %r)
    print('sabot-code written')"""


def install(port):
    """A new code written to the development shoe on port (the factory's bench, over mpremote), its key only; the
    code for its label, or None when the shoe already holds a code or a casino key (never overwritten)."""
    from sabot.mpremote_link import mpremote

    code = new_code()
    said = mpremote(port, "exec", INSTALL % key_text(code))
    if "sabot-code written" in said:
        return code
    if "sabot-code held" in said:
        return None
    raise OSError("the shoe on %s did not write its enrolment code: %s" % (port, said.strip()[-200:]))
