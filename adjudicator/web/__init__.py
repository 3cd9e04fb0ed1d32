"""The HTTP plumbing: request parsing, errors, CORS, caching, logs, metrics, access markers.

`API_PREFIX` is here, below every package that tells the JSON API's paths from the pages'
(CORS, the guard, the error handlers), so none of them imports the API's blueprints.
"""

API_PREFIX = "/api/v1"
