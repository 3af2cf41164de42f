"""Streamlit helpers of the room (docs/room.md): the shared store and this browser's membership (`state`),
the Room page's parts, and the "Submit to the room" parts the other pages call."""
