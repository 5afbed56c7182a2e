"""`python -m reel_ray`: see cli.py."""

import sys

from .cli import main

sys.exit(main())
