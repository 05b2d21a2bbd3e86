"""The host's compiled parts and the packages; everything else about the package is in pyproject.toml.

- The packages: found, not listed, so that a new board's folder (boards/<board>/ with its board.json) is one.

- sabot._frames (C): the journal frames' integrity checks, against OpenSSL's libcrypto and libdeflate (Debian's
  libssl-dev and libdeflate-dev, which `make system-deps` installs).
- firmware.tableau (the shoe's tableau, for the sim), sabot.tableau_oracle (the verifier's own) and the modules of
  sabot.rules that fold records (RULES; its games and layout are data), compiled by Cython from the same .py files
  with the types of their .pxd: the verifier re-deals every coup of a journal of millions of records. Without the
  build they run as Python.
"""

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

RULES = ("row", "state", "cards", "coups", "alarms", "seances", "machine")

setup(packages=find_packages(include=["firmware", "boards", "boards.*"])
      + find_packages("host_tools", include=["sabot", "sabot.*"]), ext_modules=[
    Extension("sabot._frames", ["host_tools/sabot/_frames.c"], libraries=["crypto", "deflate"],
              extra_compile_args=["-O2", "-Wall", "-Wextra"]),
] + cythonize([Extension("firmware.tableau", ["firmware/tableau.py"]),
               Extension("sabot.tableau_oracle", ["host_tools/sabot/tableau_oracle.py"])]
              + [Extension("sabot.rules." + name, ["host_tools/sabot/rules/%s.py" % name]) for name in RULES],
              build_dir="build/cython", include_path=["host_tools", "."], language_level=3, quiet=True))
