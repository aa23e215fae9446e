"""The Flask excerpt under fixtures/ holds Flask's own tests as data: they are not collected."""

collect_ignore = ["fixtures"]
