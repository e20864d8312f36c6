"""``python3 -m famspec.audit``: the same command as ``python3 -m famspec audit``."""

import sys

from . import main

sys.exit(main())
