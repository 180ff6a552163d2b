"""Why a file named on the command line could not be read or written, in the reader's
language: the operating system words its reasons in English ("Is a directory"), and a
message in Italian would carry them as they are. The ones people meet when they type a
path are worded here; any other keeps the system's own words."""

from __future__ import annotations

import errno

from django.utils.translation import gettext as _


def read_failure(error: OSError) -> str:
    """What kept a file from being read (``error``, as opening or reading it raised), in
    the active language; the system's own reason for a case not worded here."""
    if error.errno == errno.ENOENT:
        return _("there is no such file")
    if error.errno in (errno.EACCES, errno.EPERM):
        return _("you have no permission to read it")
    return _path_failure(error)


def write_failure(error: OSError) -> str:
    """What kept a file from being written (``error``, as writing it raised), in the
    active language; the system's own reason for a case not worded here."""
    if error.errno == errno.ENOENT:
        return _("its folder does not exist")
    if error.errno in (errno.EACCES, errno.EPERM):
        return _("you have no permission to write there")
    if error.errno == errno.ENOSPC:
        return _("the disk is full")
    return _path_failure(error)


def _path_failure(error: OSError) -> str:
    """The reasons a path fails alike for reading and writing."""
    if error.errno == errno.EISDIR:
        return _("it is a folder, not a file")
    if error.errno == errno.ENOTDIR:
        return _("a part of its path is a file, not a folder")
    return error.strerror or str(error)
