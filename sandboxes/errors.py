"""The one exception type that the CLI turns into a single line and exit code 2."""


class UserError(Exception):
    """A problem the user can fix (bad flag, missing file, no credentials, missing toolchain).

    The CLI prints ``str(error)`` as one line and exits with code 2; ``--debug`` shows the traceback.
    """
