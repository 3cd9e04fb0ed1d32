"""HTTP caching for the answers that change only when the service is redeployed.

`/lexicons`, `/rulesets`, `/rulesets/<id>` and `/openapi.json` carry a strong `ETag` (a digest of
the body) and `Cache-Control: max-age=N` (`ADJUDICATOR_CACHE_MAX_AGE`, 60 s by default); a
request with a matching `If-None-Match` gets `304 Not Modified` and no body. After a redeploy with
a new lexicon the body, and so the ETag, changes.
"""

from __future__ import annotations

from flask import Response, request

from adjudicator.settings import current_settings


def cacheable(response: Response) -> Response:
    """Add ETag and Cache-Control, and turn the answer into a 304 when the client has it."""
    response.add_etag()
    response.cache_control.max_age = current_settings().cache_max_age
    return response.make_conditional(request)
