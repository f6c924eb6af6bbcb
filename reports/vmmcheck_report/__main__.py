"""``python3 -m vmmcheck_report``: hands over to the command line in cli.py."""

import sys

from .cli import main

sys.exit(main())
