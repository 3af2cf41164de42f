"""Streamlit-only helpers shared by the pages (sidebar, cached model calls, collection, i18n, figures)."""
