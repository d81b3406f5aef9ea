"""``python -m desktop``: the ``battlemap`` command (the autosave runs its check so)."""

import sys

from desktop.cli.main import main

sys.exit(main())
