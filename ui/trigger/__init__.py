"""The trigger page's own Streamlit helpers."""
