"""A field a class, interface or struct gains is a feature: a setting the code did not have."""

from __future__ import annotations

from tests.support.repo import Repo
from tests.support.titles import titled

CONFIG = (
    "from dataclasses import dataclass\n\n\n@dataclass\nclass ChangelogConfig:\n    template_dir: str = 'templates'\n"
)


def test_a_python_class_gaining_a_field_is_a_feature(repo: Repo) -> None:
    facts, title = titled(repo, "src/release/config.py", CONFIG, CONFIG + "    mask_initial_release: bool = False\n")
    assert facts.fields == ["mask_initial_release"]
    assert title == "feat(config): add mask_initial_release"


def test_a_typescript_interface_gaining_a_member_is_a_feature(repo: Repo) -> None:
    before = "export interface ReleaserConfig {\n  releaseType: string;\n}\n"
    after = "export interface ReleaserConfig {\n  releaseType: string;\n  includeCommitAuthors?: boolean;\n}\n"
    facts, title = titled(repo, "src/manifest.ts", before, after)
    assert facts.fields == ["includeCommitAuthors"]
    assert title.startswith("feat")
    assert "includeCommitAuthors" in title


def test_a_go_struct_gaining_a_field_is_a_feature(repo: Repo) -> None:
    before = "package cli\n\ntype Options struct {\n\tName string\n}\n"
    after = 'package cli\n\ntype Options struct {\n\tName string\n\tTimeout time.Duration `json:"timeout"`\n}\n'
    facts, title = titled(repo, "cli/options.go", before, after)
    assert facts.fields == ["Timeout"]
    assert title.startswith("feat")


def test_a_local_annotated_in_a_function_or_a_field_retyped_is_no_new_field(repo: Repo) -> None:
    body = "def load(path):\n    if not path:\n        return None\n    return read(path)\n"
    local = body.replace("    return read(path)\n", "    data: bytes = read(path)\n    return data\n")
    facts, title = titled(repo, "app/load.py", body, local)
    assert facts.fields == []
    assert not title.startswith("feat")
    retyped = CONFIG.replace("template_dir: str", "template_dir: str | None")
    facts, _ = titled(repo, "src/release/config.py", CONFIG, retyped)
    assert facts.fields == []


def test_an_attribute_only_annotated_is_no_new_field(repo: Repo) -> None:
    # Flask 2.2.3's wrappers.py: ``json_module = json`` became ``json_module: t.Any = json``
    before = "import json\n\n\nclass Request:\n    json_module = json\n"
    facts, title = titled(repo, "src/app/wrappers.py", before, before.replace("json_module =", "json_module: t.Any ="))
    assert facts.fields == []
    assert "json_module" not in title or not title.startswith("feat")
    new = before + "    charset: str = 'utf-8'\n"
    facts, _ = titled(repo, "src/app/wrappers.py", before, new)
    assert facts.fields == ["charset"]


def test_a_go_field_retyped_from_a_func_type_is_no_new_field(repo: Repo) -> None:
    # cobra's ``ValidArgsFunction func(cmd *Command, ...) ([]string, ShellCompDirective)`` became
    # ``ValidArgsFunction CompletionFunc``: the field was there before, with a function type.
    before = "package cobra\n\ntype Command struct {\n\tValidArgsFunction func(cmd *Command, args []string) ([]string, int)\n}\n"
    after = before.replace("func(cmd *Command, args []string) ([]string, int)", "CompletionFunc")
    facts, title = titled(repo, "command.go", before, after)
    assert facts.fields == []
    assert "ValidArgsFunction" not in title
