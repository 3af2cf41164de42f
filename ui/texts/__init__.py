"""UI text catalogues, one module per page or shared part.

Each module defines ``TEXTS: dict[str, dict[str, str]]`` mapping a key to its French ("fr") and
English ("en") text. Keys are prefixed by the module name (``kappa.title``) so modules never clash.
"""
