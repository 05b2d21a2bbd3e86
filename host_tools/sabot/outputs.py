"""One rule for every command that writes a file or a folder of its own (report, cagnotte carnet, ouverte
declaration, fleet report, fleet export): what is there already is refused without --force and replaced with it,
never silently."""

from pathlib import Path


class Exists(Exception):
    """An output already there and no --force: said in one line."""


def may_write(path, force, folder=False):
    """Nothing when path may be written: absent (a folder: absent or empty), or force given; Exists otherwise."""
    path = Path(path)
    if force:
        return
    if folder:
        if path.is_dir() and any(path.iterdir()):
            raise Exists("%s is not empty: give --force to replace what is there, or another folder" % path)
        return
    if path.exists() or path.is_symlink():
        raise Exists("%s exists: give --force to replace it, or another name" % path)


def may_write_all(paths, force):
    """may_write for each of paths (the pages a command writes together)."""
    for path in paths:
        may_write(path, force)
