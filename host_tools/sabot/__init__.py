"""Host tools for the sabot: the simulator's front end, the journal's verifier, export and report, and the
technician's link to a shoe."""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version


def tool_version():
    """The installed sabot package's version, which the report and `sabot --version` name."""
    try:
        return _version("sabot")
    except PackageNotFoundError:
        return "unknown"
