"""The persona page's own Streamlit helpers."""
