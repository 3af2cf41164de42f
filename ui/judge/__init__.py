"""The judge page's own Streamlit helpers."""
