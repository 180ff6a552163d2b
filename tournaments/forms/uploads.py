"""A text file uploaded to a form (a map, a tournament document): refused when larger than
the form allows or not UTF-8, each with the form's own words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def uploaded_text(
    upload: UploadedFile, *, limit: int, too_large: StrOrPromise, not_text: StrOrPromise
) -> str:
    """The upload's text (a byte-order mark dropped), or ValidationError ``too_large`` when
    it has more than ``limit`` bytes, ``not_text`` when it is not UTF-8."""
    if (upload.size or 0) > limit:
        raise ValidationError(too_large)
    try:
        return upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError(not_text) from None
