"""``python3 -m famspec.sync``: the same command as ``python3 -m famspec sync``."""

import sys

from . import main

sys.exit(main())
