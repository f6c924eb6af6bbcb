"""What a path names when it is neither a regular file nor a folder: the one check before every read and
write of the report tool (load, outputs, history). A FIFO would block a read until a writer came (and a
write until a reader did), a device need not end, a socket is no file: each is refused by name."""

from __future__ import annotations

import os
import stat
from typing import Optional

_KINDS = ((stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"),
          (stat.S_ISSOCK, "socket"))


def kind_of_mode(mode: int) -> Optional[str]:
    """"FIFO", "character device", ... for a mode neither a regular file's nor a folder's; else None."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "special file")


def special(path) -> Optional[str]:
    """What `path` is when it is there and neither a regular file nor a folder (links followed); None when
    it is missing, a regular file or a folder."""
    try:
        return kind_of_mode(os.stat(path).st_mode)
    except (OSError, ValueError):   # missing, unreadable, or a name no file can have (a NUL byte)
        return None
