"""Widgets of the main screen, one pane each."""
