"""How a command fails: one line on standard error and exit status 2."""

import re

USAGE_ERROR = 2
_LINE_BREAKS = re.compile(r"\s*[\r\n]+\s*")
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")


class CliError(Exception):
    """Bad input on the command line: printed as one line, exit status 2."""


def one_line(problem: object) -> str:
    """``problem`` as one line of inert text for the terminal: line breaks become spaces,
    any other control character (an ESC would start an escape sequence) its escape.

    >>> print(one_line("a\\r\\nb \\x1b[2J"))
    a b \\x1b[2J
    """
    text = _LINE_BREAKS.sub(" ", str(problem))
    return _CONTROLS.sub(lambda found: repr(found[0])[1:-1], text)
