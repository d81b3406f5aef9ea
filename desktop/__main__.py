"""``python -m desktop``: the ``battlemap`` command (the autosave runs its check so)."""

import sys

from desktop.cli import main

sys.exit(main())
