"""HTTP blueprints, one per feature, all under the `/api/v1` prefix (`adjudicator.web.API_PREFIX`)."""
