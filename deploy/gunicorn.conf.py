"""gunicorn settings: `gunicorn -c deploy/gunicorn.conf.py adjudicator.wsgi:app`.

The settings live in the package (`adjudicator/gunicorn_conf.py`), so that an installed service
(`pip install`, then `adjudicator serve`) has them too; this file only reads them.
"""

from adjudicator.gunicorn_conf import *  # noqa: F403
