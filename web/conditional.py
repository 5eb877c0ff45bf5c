"""Answer "anything new?" with 304 Not Modified when a match has not changed.

A watching phone (the live view, a client of the API) sends back the ETag it was given; while
the match is as it was, the answer costs one indexed read and no replay.
"""

from __future__ import annotations

from flask import Response, request
from flask.typing import ResponseReturnValue
from flask_babel import get_locale

from scorebook import matches, storage

from .db import get_db


def match_tag(match_id: int) -> tuple[str, str]:
    """Return a match's version and the tag naming what its pages and answers show: the
    match, its version and the language, in one read (404 for no such match).

    Every change (a correction, a removal, a restore too) moves the version on; the words of
    the explanations follow the reader's language.
    """
    stamp = storage.match_stamp(get_db(), match_id) if 0 < match_id <= matches.LARGEST_ID else None
    if stamp is None:
        raise matches.no_such_match(match_id)
    uid, version = stamp
    return str(version), f"{uid}-{version}-{get_locale() or 'en'}"


def unchanged(tag: str) -> Response | None:
    """Return a 304 when the asker already holds what this tag names, else None."""
    if not request.if_none_match.contains_weak(tag):
        return None
    response = Response(status=304)
    return tagged(response, tag)


def tagged(response: ResponseReturnValue, tag: str) -> Response:
    """Give an answer its ETag, to be kept but asked about again before each use."""
    answer = response if isinstance(response, Response) else Response(response)
    answer.set_etag(tag, weak=True)
    answer.cache_control.no_cache = True
    return answer
