"""Modal dialogs: pick a group, type a line of text, confirm."""
