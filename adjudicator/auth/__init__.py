"""Who is asking: the caller of a request (see `caller.py`)."""
