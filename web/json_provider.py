"""JSON answers encoded by orjson: a match of 200 rounds is the API's largest answer."""

from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider


class OrjsonProvider(DefaultJSONProvider):
    """Encode with orjson, keys sorted as Flask's own provider does; decode as Flask does."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        """Return `obj` as compact JSON text (Flask's indent and separators do not apply).

        A label the scorers translate when read (`scorers.words.lazy`) is written as the text
        it reads as: the API speaks English.
        """
        options = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
        return orjson.dumps(obj, default=str, option=options).decode()
