"""gunicorn settings for the adjudicator: `gunicorn -c deploy/gunicorn.conf.py adjudicator.wsgi:app`.

`preload_app` builds the app, and so memory-maps every lexicon, in the master before forking:
the workers then share the trie pages instead of each holding a private copy.
"""

import multiprocessing
import os

bind = os.environ.get("ADJUDICATOR_BIND", "127.0.0.1:8000").split(",")
workers = int(os.environ.get("ADJUDICATOR_WORKERS", min(4, 2 * multiprocessing.cpu_count())))
threads = int(os.environ.get("ADJUDICATOR_THREADS", "1"))
preload_app = True
timeout = 30
graceful_timeout = 10
keepalive = 5

# Access logs carry method, path, status and time: never request bodies, so never the words.
accesslog = os.environ.get("ADJUDICATOR_ACCESS_LOG", "-")
errorlog = os.environ.get("ADJUDICATOR_ERROR_LOG", "-")
loglevel = os.environ.get("ADJUDICATOR_LOG_LEVEL", "info")
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'


def pre_fork(server, worker):
    """Move everything the master built (lexicon objects included) out of the GC's reach.

    Without this, the first collection in each worker walks and writes every inherited object,
    turning shared copy-on-write pages into private copies.
    """
    import gc

    gc.freeze()
