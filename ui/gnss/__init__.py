"""The gnss page's own Streamlit helpers."""
