"""The changed paths whose content is never sent to a model: those git's ignore rules match, and
files named like secrets.

Untracked ignored files are never captured at all (``changes.capture`` lists
untracked files with ``--exclude-standard``); this also catches a tracked file
an ignore rule matches (one added with ``git add -f``, a ``.env`` committed
before the rule), by asking git's own matcher with ``--no-index``. A file is
secret by its whole name, never a part of it: ``.env``, ``.env.local``,
``prod.env``, a private key (``id_rsa``, ``server.pem``, ``tls.key``), but not
``.env.example``, ``environment.py``, ``tokenizer.py`` or ``keyboard.py``.
"""

from __future__ import annotations

import re

from segmint_core.git import Git, decode, encode

_SECRET_FILE = re.compile(
    r"(?:^|/)(?:\.env(?:\.(?!(?:example|sample|template|dist)$)[^/]+)?"  # .env, .env.local; not .env.example
    r"|[^/]+\.env"  # prod.env
    r"|id_(?:rsa|dsa|ecdsa|ed25519)"  # ssh private keys
    r"|[^/]+\.(?:pem|key|p12|pfx))$"  # keys and certificate stores
)


def withheld_paths(git: Git | None, paths: list[str]) -> set[str]:
    """The paths among ``paths`` that a ``.gitignore`` (or ``info/exclude``, ``core.excludesFile``) matches,
    or that are named like a secret (``secret_file``)."""
    paths = [p for p in dict.fromkeys(paths) if p]
    return _ignored(git, paths) | {p for p in paths if secret_file(p)}


def secret_file(path: str) -> bool:
    return _SECRET_FILE.search(path) is not None


def _ignored(git: Git | None, paths: list[str]) -> set[str]:
    if git is None or not paths:
        return set()
    request = b"".join(encode(p) + b"\0" for p in paths)
    result = git.run("check-ignore", "--no-index", "-z", "--stdin", input=request, check=False)
    if result.returncode not in (0, 1):  # 1: none of them is ignored
        return set(paths)  # git cannot say: send nothing of any file
    return {decode(p) for p in result.stdout.split(b"\0") if p}
