"""The ``battlemap`` command line: the headless commands (resolve, odds, cover, morale, render,
import, check, install-desktop-entry). It opens no window: ``battlemap [FILE]`` hands over to
:func:`desktop.app.run_app`, its one way into the GUI."""
