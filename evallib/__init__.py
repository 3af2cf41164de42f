"""Shared library of the workshop: pure Python, never imports streamlit."""
