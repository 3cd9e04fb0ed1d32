"""The processes: gunicorn's conf, worker and entry point, hot reload."""
