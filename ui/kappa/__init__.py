"""Streamlit helpers of the kappa page."""
