"""Persona audit: do differently-prompted assistants really answer differently?

The whole protocol is in ``protocol`` (``discriminability``, ``audit``), its parts in ``classifier``
(leave-one-out nearest centroid, confusion matrix), ``permutation`` (permutation null, bootstrap over
probes, Mantel test) and ``distances`` (prompt and response distances, rank comparison); readings of
the results in ``readings``, the six assistants and their probes in ``catalogue``. The public names of
``protocol`` are importable from here.
"""

from evallib.persona.protocol import *  # noqa: F403 (the package's public names, listed in protocol.__all__)
from evallib.persona.protocol import __all__  # noqa: F401
