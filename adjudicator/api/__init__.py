"""HTTP blueprints, one per feature, all under the `/api/v1` prefix."""

API_PREFIX = "/api/v1"
