"""Entry point of the standalone build (PyInstaller runs this file as ``__main__``)."""

import sys

from desktop.cli.main import main

sys.exit(main())
