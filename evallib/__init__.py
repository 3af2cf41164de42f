"""Shared library of the workshop: pure Python, never imports streamlit."""

#: The app's version, written in every run bundle and room export (move it with each release).
__version__ = "0.12.0"
