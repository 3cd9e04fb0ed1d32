"""gunicorn settings: `gunicorn -c deploy/gunicorn.conf.py adjudicator.process.wsgi:app`.

The settings live in the package (`adjudicator/process/gunicorn_conf.py`), so that an installed service
(`pip install`, then `adjudicator serve`) has them too; this file only reads them.
"""

from adjudicator.process.gunicorn_conf import *  # noqa: F403
