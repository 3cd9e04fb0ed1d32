"""The HTTP plumbing: request parsing, errors, CORS, caching, logs, metrics."""
