"""What the app takes from the machine it runs on: the files it ships and its version
(``resources``, no Qt), the QApplication and the app's data folder (``application``), and
the X11 libraries Qt's window needs (``display``)."""
