"""The service with group commit taken out (`_variants.OneEach`), for `benchmarks/machinery.py`."""

from __future__ import annotations

from adjudicator.process.wsgi import app
from benchmarks._variants import OneEach

_writer = app.extensions["group_commit"]
app.extensions["group_commit"] = OneEach(_writer.store, _writer.observe)
