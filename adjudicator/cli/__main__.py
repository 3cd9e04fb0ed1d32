"""`python -m adjudicator.cli`: the `adjudicator` command."""

import sys

from adjudicator.cli import main

sys.exit(main())
