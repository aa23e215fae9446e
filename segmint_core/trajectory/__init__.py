"""The edit timeline, recorded as Code Trajectory records it.

Every save in the project is recorded into a shadow git repository in
``.trajectory/`` (its own git dir, the project as work tree, its own index), so
an agent can see how a file evolved, spot reverts and pick up where the last
session stopped; the grouping engine reads the same timeline as a signal.

Modules, from the bottom up:

- ``clock``            wall-clock injection and time formatting
- ``commit_messages``  the ``[AUTO-TRJ]``/``[CONSOLIDATE]`` message format, built and parsed
- ``shadow``           git plumbing on the shadow repository (lock retries, CAS ref updates)
- ``ignore``           the project's ignore rules (git's own) and the ``info/exclude`` entry
- ``recorder``         one snapshot of a set of paths; consolidate
- ``debounce``         per-path debouncing on its own thread
- ``watcher``          watchdog events -> debouncer
- ``recording``        recorder + debouncer + watcher for one project, start/stop
- ``history``          reading the shadow log back
- ``sessions``         splitting the log into sessions at gaps
- ``format``           markdown for the tools, diff truncation
- ``service``          ``TrajectoryService``: the six tools
- ``timeline``         ``hunk_histories``: the grouping signal

Nothing here is imported by this package's ``__init__`` so that importing
``segmint_core.trajectory.timeline`` never loads watchdog.
"""
