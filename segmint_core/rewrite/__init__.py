"""Committed history as Segmint's material: the unpushed stack, fixes absorbed into the commits they fix."""
