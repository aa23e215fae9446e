"""Screens: the main screen and the help screen."""
