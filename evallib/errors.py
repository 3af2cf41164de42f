"""The one error shape for bad input in evallib: a message for a log, a code and details for a UI.

A page words the problem in its own language from ``code`` and ``details``; a script or CI job reads
the English message. Each module subclasses it (``AgreementInputError``, ``CatalogueError``...).
"""


class InputError(ValueError):
    """Input that cannot be used as given.

    Attributes:
        code: short name of the problem (e.g. ``"empty"``, ``"duplicate_names"``).
        details: the values the message mentions, by name.
    """

    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(message)
        self.code = code
        self.details = details
