"""How a command fails: one line on standard error and exit status 2."""

USAGE_ERROR = 2


class CliError(Exception):
    """Bad input on the command line: printed as one line, exit status 2."""
