"""What a set of hunks does, read off the diff: the facts commit messages are made of.

Definitions added, removed or changed (Python, JS/TS, Go, Rust, Java/C-like,
shell), consistent renames (the same token swapped on many lines), comments
added (the "why" an author wrote down), headings added to docs, version
bumps, whitespace-only edits. Language-agnostic regexes on purpose: the
message writer needs names, not a full parse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence, Set as AbstractSet

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import PurePosixPath

from segmint_core.changes.comments import COMMENT, explaining
from segmint_core.changes.generated import is_lock_file, is_manifest
from segmint_core.changes.kinds import (
    DOC_SUFFIXES,
    example_of,
    is_build_path,
    is_ci_path,
    is_doc_path,
    is_ignore_file,
    is_test_path,
)
from segmint_core.changes.markup import is_fence, is_title, is_underline, list_item, markdown_heading
from segmint_core.changes.models import Change, Hunk
from segmint_core.changes.tested_versions import LANGUAGES, tested_change
from segmint_core.changes.versions import NUMBERS, PEP_440
from segmint_core.git_modes import EXECUTABLE, GITLINK, REGULAR, SYMLINK
from segmint_core.changes.changelog import changelog_entry, entry_lines, entry_reference
from segmint_core.planning.cases import REMOVED, cases
from segmint_core.planning.bumps import Bump, listed_changes, version_changes
from segmint_core.planning.claims import ISSUE_FIXED, code_names, same_tokens
from segmint_core.planning import commented, pragmas, settings_edit, type_hints, warning_filters
from segmint_core.planning.swaps import swapped
from segmint_core.planning.warning_filters import WarningFilters
from segmint_core.planning.credits import uncredited
from segmint_core.planning.commented import CommentedEdit
from segmint_core.planning.help_text import helped_option, removed_helps
from segmint_core.planning.list_items import added_items
from segmint_core.planning.lazy_imports import lazy_imports
from segmint_core.planning.defaults import DefaultChange, HunkText, read_defaults
from segmint_core.planning.supported_versions import FileLines, support_change
from segmint_core.planning.raw_strings import raw_strings_edit
from segmint_core.planning.hint_sides import AnnotationEdit
from segmint_core.planning.pragmas import PragmaEdit
from segmint_core.planning.punctuation import LAYOUT_TOKEN, punctuation_edit
from segmint_core.planning.prose import ProseEdit, read_edit, runs_command, without_links
from segmint_core.planning.settings_edit import SettingsEdit

_DEF_PATTERNS = [
    # Each name must be followed by what a definition puts there (``(``, ``:``, ``{``...), so a
    # docstring's "the function is to..." or "a class of objects" names nothing.
    re.compile(r"^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*[(\[]"),  # Python
    re.compile(
        r"^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)"
        r"(?=\s*[(:{<]|\s+(?:extends|implements)\b|\s*$)"
    ),  # Python, JS, TS, Java...
    re.compile(r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s+([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\("),
    re.compile(
        r"^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*=>"
    ),
    re.compile(r"^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)"),  # Go
    re.compile(r"^type\s+([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)?func\b"),  # Go's function types
    re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+([A-Za-z_]\w*)\s*[<(]"),  # Rust
    # Java/C#/Kotlin methods need a modifier; C functions start at column 0.
    re.compile(
        r"^\s*(?:(?:public|private|protected|internal|static|final|abstract|override|synchronized)\s+)+"
        r"[\w<>\[\],.?\s]*?([A-Za-z_]\w*)\s*\([^;]*$"
    ),
    re.compile(r"^(?!return\b|else\b)[A-Za-z_][\w\s*]*?[\s*]([A-Za-z_]\w*)\s*\([^;]*\)\s*\{?\s*$"),
    re.compile(r"^([A-Za-z_][\w-]*)\s*\(\)\s*\{"),  # shell
    # JavaScript members: ``res.links = function(links){``, ``Router.prototype.route = function``
    re.compile(r"^\s*((?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?function\b"),
    # and an object literal's: ``reduce: function(memo, fn) {``, ``all: async (fn) => {`` (an arrow
    # opening a block: TypeScript's ``releaseFilter: (version: Version) => boolean,`` is a type)
    re.compile(
        r"^\s*([A-Za-z_$][\w$]*)\s*:\s*(?:async\s+)?(?:function\b\*?\s*(?:[A-Za-z_$][\w$]*)?\s*\("
        r"|(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>\s*\{\s*$)"
    ),
    # JavaScript and TypeScript methods: ``async getPullRequest(number: number): Promise<X> {``
    # on one line, or a signature left open at class level (``  buildNotes(``), a generator's
    # too (``private async *pullRequestIterator(``); a call passing a callback
    # (``describe('x', function () {``, ``$(e).each(function(child){``) is not one.
    re.compile(
        r"^\s*(?:(?:static|async|get|set|public|private|protected|readonly|override)\s+)*"
        r"(?:\*(?=[A-Za-z_$]))?([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\((?!.*\bfunction\b)[^;=]*\)\s*(?::\s*[^{;=]+)?\{\s*$"
    ),
    re.compile(
        r"^(?: {2}|\t)(?:(?:static|async|get|set|public|private|protected|readonly|override)\s+)*"
        r"(?:\*(?=[A-Za-z_$]))?([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\(\s*$"
    ),
]
# Words the patterns above can take for a name: statements, and a constructor (its class names it better).
_NOT_DEFS = {
    "if",
    "for",
    "while",
    "switch",
    "return",
    "new",
    "else",
    "catch",
    "function",
    "do",
    "with",
    "elif",
    "constructor",
    "super",
    "await",
    "typeof",
    "delete",
    "void",
    "yield",
    "func",  # Go's ``type Handler func(w Writer) error`` reads as a C function named ``func``
}
_MEMBER_NOISE = re.compile(r"^(?:module\.)?exports\.|\.prototype(?=\.)")
# Every pattern above needs one of these in the line: most lines skip the regexes.
_DEF_CUES = ("(", "def", "class", "func", "fn", "=>", "function")
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:'[a-z]+)?")  # a token, or a word with its apostrophe (``it's``)
_OPTION = re.compile(r"""(?:add_argument|\.option|Option)\(\s*(?:["'](-[\w-]+)["']\s*,\s*)*["'](--?[\w-]+)["']""")
_OPTION_OPENED = re.compile(r"(?:add_argument|\.option|Option)\(\s*$")
# The same declared in other languages, each giving its long name: clap's ``.long("max-depth")``,
# pflag's ``Flags().BoolVarP(&v, "verbose", "v", ...)`` (cobra), commander's ``.option('-p, --port <n>')``.
_OTHER_OPTIONS = re.compile(
    r"""\.long\(\s*"(?P<clap>[\w-]+)"\s*\)"""
    r"""|Flags\(\)\.(?:Bool|String|Int|Uint|Float|Duration|Count|IP|Var)\w*\(\s*(?:&[\w.]+\s*,\s*)?"(?P<pflag>[\w-]+)"\s*,"""
    r"""|\.option\(\s*["'](?:-\w\s*,\s*)?(?P<commander>--[\w-]+)[\s"'<\[]"""
)
_CONDITION = re.compile(
    r"^\s*(?:\}\s*)?(?:if|elif|else\s+if|unless|while|case|when|match|switch|guard)\b|&&|\|\||\?\?|\bis\s+(?:not\s+)?None\b"
)
_IMPORT = re.compile(
    r"""^\s*(?:import\s+([\w.]+)|from\s+([\w.]+)\s+import\b|import\s.*?from\s+["']([^"']+)["']"""
    r"""|(?:const|let|var)\s.*?=\s*require\(["']([^"']+)["']\))"""
)

SUBPROJECT = "Subproject commit "
CHANGELOGS = {"changelog", "changes", "history", "news", "releases", "release-notes"}


@dataclass
class Facts:
    paths: list[str] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)  # lines added and removed, per path
    new_files: list[str] = field(default_factory=list)
    deleted_files: list[str] = field(default_factory=list)
    renamed_files: list[tuple[str, str]] = field(default_factory=list)
    added_defs: list[str] = field(default_factory=list)
    code_added_defs: list[str] = field(default_factory=list)  # outside tests and docs
    options: list[str] = field(default_factory=list)  # command-line flags added
    imports: list[str] = field(default_factory=list)  # modules newly imported by code
    removed_defs: list[str] = field(default_factory=list)
    changed_defs: list[str] = field(default_factory=list)
    code_changed_defs: list[str] = field(default_factory=list)  # outside tests and docs
    def_lines: Counter = field(default_factory=Counter)  # code definition -> its lines changed
    params: list[tuple[str, str]] = field(default_factory=list)  # (function, parameter) added to a signature
    fields: list[str] = field(default_factory=list)  # fields a class, interface or struct gains (``_fields``)
    missing: list[str] = field(default_factory=list)  # names newly checked for None, null, nil or falsy
    retyped: list[str] = field(default_factory=list)  # parameters or fields whose type annotation changed
    renames: list[tuple[str, str]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)
    unreleased: list[str] = field(default_factory=list)  # headings added for a version not yet released
    # (old, new) headings, where the docs change only them
    retitled: list[tuple[str, str]] = field(default_factory=list)
    doc_sections: list[str] = field(default_factory=list)  # titles of the docs sections edited, in order
    bumps: list[Bump] = field(default_factory=list)  # dependency versions changed
    own_version: Bump | None = None  # the project's own version changed
    deps_added: list[str] = field(default_factory=list)  # dependencies a file listing them gains
    deps_removed: list[str] = field(default_factory=list)  # and those it no longer lists
    # docs pages (not changelogs) whose every changed line only writes other versions, and those versions
    version_docs: dict[str, set[str]] = field(default_factory=dict)
    added: int = 0
    removed: int = 0
    whitespace_only: bool = True
    trailing_spaces: bool = False  # every changed line only loses the blanks it ended with
    comment_only: bool = False  # every changed code line is a comment or docstring line
    documented: Counter = field(default_factory=Counter)  # code definition -> its docstring or comment lines changed
    documented_paths: Counter = field(default_factory=Counter)  # and the same lines by file
    explaining: tuple[int, int] = (0, 0)  # changed code lines that are docstrings or comments, and the others
    moved_only: bool = False
    format_only: bool = False  # the same tokens, only laid out or quoted differently (a formatter's work)
    punctuation: str | None = None  # what a change of punctuation alone does ("remove braces")
    imports_touched: bool = False  # an import line among the changed lines
    tokens_same: bool = False  # each hunk's token stream as it was (``claims.same_tokens``): formatting alone
    raises: list[str] = field(default_factory=list)  # exceptions newly raised (thrown)
    raised_again: list[str] = field(default_factory=list)  # and those raised where they were, the raise rewritten
    handles: list[str] = field(default_factory=list)
    typos: list[tuple[str, str]] = field(default_factory=list)  # words respelled (edit distance 1-2)
    typo_only: bool = False  # every changed line only respells a word or two
    typo_paths: list[str] = field(default_factory=list)  # the files a word is respelled in
    conditions: int = 0  # changed code lines that test something (if, while, case, a guard)
    conditions_changed: int = 0  # such lines rewritten (a condition tightened or loosened), not only added
    changelog_entries: list[str] = field(default_factory=list)  # the first sentence of each entry added to a changelog
    changelog_items: int = 0  # list items (entries) the change adds to a changelog
    changelog_moved: int = 0  # entries the change takes out of a changelog and writes again elsewhere in it
    changelog_reference: str | None = None  # the pull request (or issue) its added lines name first
    changelog_fixes: bool = False  # an entry it adds sits under a changelog heading of fixes ("### Fixed")
    references: list[str] = field(default_factory=list)  # added lines naming an issue fixed or closed
    replacements: list[tuple[str, str]] = field(default_factory=list)  # of ``renames``: the old name defined,
    # the new one not (a built-in or another module's name used instead), or either still in use: no rename
    submodules: list[tuple[str, str | None, str | None]] = field(default_factory=list)  # path, old, new commit
    executable: dict[str, bool] = field(default_factory=dict)  # path -> made executable (True) or not (False)
    binary_files: list[str] = field(default_factory=list)  # no lines to count
    retargeted: dict[str, str] = field(default_factory=dict)  # symbolic link -> the new path it points to
    prose: ProseEdit | None = None  # what a small edit of docs adds or removes (``prose.py``)
    cases_added: int = 0  # test cases a test file gains (``it("...")``, ``test("...")``, ``def test_``)
    cases_removed: list[str] = field(default_factory=list)  # in words, where test files only lose lines
    settings: SettingsEdit | None = None  # the keys an edit of settings files only touches (``settings_edit.py``)
    ignored: tuple[list[str], list[str]] | None = None  # patterns an edit of ignore files only adds, removes
    commented: CommentedEdit | None = None  # code only commented out, or back in
    commented_name: str | None = None  # what that code is (``commented.named``)
    list_items: list[tuple[str | None, list[str]]] = field(default_factory=list)  # (list, values): all it adds
    help_of: list[str] = field(default_factory=list)  # options whose help text is all the code hunks change
    supported: str | None = None  # "drop Python 3.6 support", "bump MSRV to 1.53" (``supported_versions.py``)
    tested: str | None = None  # "test on Python 3.9": the versions CI tests on, changed (``tested_versions.py``)
    raw_strings: str | None = None  # "fix invalid escape sequences": Python strings only made raw (``raw_strings.py``)
    helps_removed: int = 0  # help texts of options a change only takes out
    swapped: tuple[str, str] | None = None  # (old, new): an expression every rewritten code line swaps
    reworded: bool = False  # every changed line is an old one reworded: none added or removed, none grown much
    warning_filters: WarningFilters | None = None  # the warnings a change only starts or stops ignoring
    pragmas: PragmaEdit | None = None  # the ``# type: ignore``-like comments a change only adds, removes, edits
    annotations: AnnotationEdit | None = None  # the type hints a change only adds, changes, removes (``type_hints.py``)
    owners: dict[str, str] = field(default_factory=dict)  # a constructor or special method -> its class
    new_names: list[str] = field(default_factory=list)  # code names (``gcc_prefix``, ``--max-depth``) only added
    code_new_names: list[str] = field(default_factory=list)  # of those, the ones code adds (not its docs)
    lazy_imports: list[str] = field(default_factory=list)  # modules only moved from a file's top into its code
    defaults: list[DefaultChange] = field(default_factory=list)  # default values all the code changes (``defaults.py``)
    gone_names: list[str] = field(default_factory=list)  # and only removed, most written first
    examples: int = 0  # code blocks a docs change adds, where it does nothing else
    sample_fixed: bool = False  # an example's line or few rewritten, and nothing else (``_in_samples``)
    new_lines: str = ""  # what the added lines are, where they add no name ("help calls", "a comment", "3 lines")
    gone_lines: str = ""  # the same of the removed lines


# The text of the file a hunk changes as it was, where it can be read (``enclosing.Sections.old_text``).
OldText = Callable[[Hunk], list[str] | None]


def gather(changes: list[tuple[Change, list[Hunk]]], old_text: OldText | None = None) -> Facts:
    """What ``changes`` do; ``old_text`` (where given) shows what else their files held, so a name
    swapped is a rename only where the file no longer writes the old one anywhere."""
    facts = Facts()
    added_lines: list[str] = []
    removed_lines: list[str] = []
    pairs: list[tuple[str, str]] = []
    code_added: list[str] = []
    members: set[str] = set()  # the names defined inside the classes the code's hunks add
    code_removed: list[str] = []
    code_comments: list[Comment] = []
    fields_added: list[str] = []
    fields_removed: list[str] = []
    doc_added: list[tuple[str, str]] = []
    doc_removed: list[tuple[str, str]] = []
    added_fenced: set[int] = set()  # the places in ``doc_added`` inside a fenced code block
    removed_fenced: set[int] = set()
    test_added: list[str] = []
    test_removed: list[str] = []
    changelog_added: list[str] = []
    changelog_fixes = False
    changelog_removed: list[str] = []
    hunk_sides: list[tuple[str, list[str], list[str]]] = []  # (path, removed, added) of each hunk
    hunk_lines: list[FileLines] = []  # (path, added, removed) of each hunk, its changed lines alone
    kept_lines: list[str] = []  # the unchanged lines the hunks show around their changes
    doc_lines = prose_lines = 0
    helped: list[str | None] = []  # each code hunk's option whose help text it only rewords
    unhelped: list[int | None] = []  # each code hunk's help texts, where it only takes them out
    grown: list[tuple[str | None, list[str]] | None] = []  # each hunk's values added to a literal list
    spread_params: list[tuple[str, str]] = []  # parameters added to signatures spread over lines
    layout_lines: Counter = Counter()
    code_hunks: list[HunkText] = []
    for change, hunks in changes:
        is_code = not (is_doc_path(change.file_path) or is_test_path(change.file_path))
        facts.paths.append(change.file_path)
        if change.status == "added":
            facts.new_files.append(change.file_path)
        elif change.status == "deleted":
            facts.deleted_files.append(change.file_path)
        elif change.status == "renamed" and change.old_path:
            facts.renamed_files.append((change.old_path, change.file_path))
        if change.binary:
            facts.binary_files.append(change.file_path)
        if change.old_mode == change.new_mode == SYMLINK and (target := _link_target(hunks)):
            facts.retargeted[change.file_path] = target
        if {change.old_mode, change.new_mode} == {REGULAR, EXECUTABLE}:
            facts.executable[change.file_path] = change.new_mode == EXECUTABLE
        if GITLINK in (change.old_mode, change.new_mode):
            facts.submodules.append((change.file_path, *_pointer_commits(hunks)))
            continue  # "Subproject commit <sha>" lines are not code
        for hunk in hunks:
            plus, minus = _split(hunk.lines)
            listed = not is_doc_path(change.file_path) and not settings_edit.is_settings_path(change.file_path)
            grown.append(added_items(hunk) if listed else None)
            facts.lines[change.file_path] = facts.lines.get(change.file_path, 0) + len(plus) + len(minus)
            if is_code:
                code_added += plus
                members |= _members_of_classes(plus)  # read per hunk: a class ends where its hunk does
                code_removed += minus
                code_hunks.append((change.file_path, hunk.header.split("@@", 2)[-1], hunk.lines))
                plus_fields, minus_fields = _fields(change.file_path, hunk)
                fields_added += plus_fields
                fields_removed += minus_fields
                if not is_ignore_file(change.file_path):  # "# build output" labels patterns, says no why
                    code_comments += added_comments(hunk.lines)
                doc, prose = _explaining_lines(hunk.lines)
                helped.append(helped_option(hunk))
                unhelped.append(removed_helps(hunk))
                doc_lines, prose_lines = doc_lines + doc, prose_lines + prose
            elif is_doc_path(change.file_path):
                said, unsaid = plus, minus
                if is_changelog(change.file_path):
                    changelog_added += _pending(change.file_path, plus) if change.status == "added" else plus
                    changelog_fixes = changelog_fixes or _under_fixes(hunk.lines)
                    changelog_removed += minus
                    said, unsaid = list(map(uncredited, plus)), list(map(uncredited, minus))
                added_fenced |= {len(doc_added) + at for at, fenced in enumerate(_fenced(hunk, "+")) if fenced}
                removed_fenced |= {len(doc_removed) + at for at, fenced in enumerate(_fenced(hunk, "-")) if fenced}
                doc_added += [(change.file_path, line) for line in said]
                doc_removed += [(change.file_path, line) for line in unsaid]
                if (title := _section_of(hunk)) and title not in facts.doc_sections:
                    facts.doc_sections.append(title)
            else:
                test_added += plus
                test_removed += minus
            added_lines += plus
            removed_lines += minus
            hunk_sides.append((change.file_path, *_sides(hunk.lines)))
            hunk_lines.append((change.file_path, plus, minus))
            kept_lines += [line[1:] for line in hunk.lines if line[:1] == " "]
            pairs += _line_pairs(hunk.lines)
            if _typos(_line_pairs(hunk.lines), 0)[0] and change.file_path not in facts.typo_paths:
                facts.typo_paths.append(change.file_path)
            if is_code and PurePosixPath(change.file_path).suffix in TYPED_SUFFIXES:
                facts.retyped += [n for n in _retyped(_line_pairs(hunk.lines)) if n not in facts.retyped]
            edited = _changed_defs(facts, hunk, plus, minus)
            if is_code:
                if doc and (named := _commented_def(hunk.lines)):
                    facts.documented[named] += doc
                elif doc and edited:  # a hunk over several definitions: shared as their edits are
                    for name, count in edited.items():
                        facts.documented[name] += round(doc * count / edited.total())
                facts.documented_paths[change.file_path] += doc
                spread_params += signature_params(hunk)
                facts.code_changed_defs += [d for d in edited if d not in facts.code_changed_defs]
                # a hunk a formatter could have made names its function only when nothing else does
                (layout_lines if _layout_only(plus, minus) else facts.def_lines).update(edited)
    facts.def_lines = facts.def_lines or layout_lines
    facts.added, facts.removed = len(added_lines), len(removed_lines)
    plus_defs, minus_defs = _defs(added_lines), _defs(removed_lines)
    facts.added_defs = [d for d in plus_defs if d not in minus_defs]
    facts.removed_defs = [d for d in minus_defs if d not in plus_defs]
    facts.changed_defs = [d for d in facts.changed_defs if d not in facts.added_defs]
    facts.code_changed_defs = [d for d in facts.code_changed_defs if d not in facts.added_defs]
    for new in facts.added_defs:
        facts.def_lines.pop(new, None)  # a new definition is added, not changed
    facts.renames = _renames(pairs)
    rewritten = bool(pairs) and 2 * len(pairs) == len(added_lines) + len(removed_lines)
    if rewritten and not facts.renames:
        facts.swapped = swapped(pairs)  # every changed line is one of the rewritten pairs
    facts.reworded = rewritten and all(len(new.split()) <= len(old.split()) + REWORDED_WORDS for old, new in pairs)
    # what else the files held, read only where a swap may be a rename
    before: list[str] = []  # lines of the files as they were, where a name stood before the change
    after: list[str] = []  # and those of them the change leaves, where it still stands after
    for change, hunks in changes if facts.renames else []:
        stood, stands = _standing(change, hunks, old_text)
        before += stood
        after += stands
    facts.replacements = _replacements(
        facts.renames, added_lines + kept_lines + after, removed_lines + kept_lines + before
    )
    facts.typos, facts.typo_only = _typos(pairs, len(added_lines) + len(removed_lines))
    renamed_to = {new: old for old, new in facts.renames}
    facts.added_defs = [d for d in facts.added_defs if d not in renamed_to]
    facts.removed_defs = [d for d in facts.removed_defs if d not in renamed_to.values()]
    code_defs = _defs(code_removed)
    # a new class is added with its methods, not beside them
    facts.code_added_defs = [
        d for d in _defs(code_added) if d not in code_defs and d in facts.added_defs and d not in members
    ]
    facts.options = _options(code_added, code_removed)
    facts.imports = _imports(code_added, code_removed)
    facts.comments = _comments(code_comments, code_removed)
    # a heading of the docs; in code or settings "# ..." is a comment
    headed = _headed(doc_added, added_fenced)
    facts.headings = _new_headings([heading for _, heading in headed], _headings(doc_removed, removed_fenced))
    facts.unreleased = [h for h in _unreleased(doc_added, headed) if h in facts.headings]
    facts.version_docs = _version_docs(hunk_sides)
    facts.retitled = (
        _retitled(doc_added, doc_removed) if not code_added + code_removed + test_added + test_removed else []
    )
    facts.prose = read_edit(doc_added, doc_removed)
    facts.cases_added = max(0, _cases(test_added) - _cases(test_removed))
    if test_removed and not any(line.strip() for line in test_added):
        tests = cases([(c.file_path, hunks) for c, hunks in changes])
        facts.cases_removed = [t.words for t in tests if t.status == REMOVED]
    if changes and all(
        settings_edit.is_settings_path(c.file_path) and not is_lock_file(c.file_path) for c, _ in changes
    ):
        facts.settings = settings_edit.read_edit([hunks for _, hunks in changes])
    facts.bumps, facts.own_version = version_changes(changes, is_lock_file)
    facts.deps_added, facts.deps_removed = listed_changes(changes)
    if facts.paths and all(map(is_ignore_file, facts.paths)) and not facts.new_files and not facts.deleted_files:
        now, before = _patterns(added_lines), _patterns(removed_lines)
        facts.ignored = [p for p in now if p not in before], [p for p in before if p not in now]
    facts.pragmas = pragmas.read_edit(added_lines, removed_lines)
    facts.annotations = type_hints.read_edit(changes)
    facts.warning_filters = warning_filters.read_edit(added_lines, removed_lines)
    facts.supported = support_change(hunk_lines)
    facts.lazy_imports = lazy_imports(hunk_lines)
    facts.defaults = read_defaults(code_hunks)
    facts.tested = tested_change(changes)
    if facts.tested:  # ``go-version: '^1.21'`` to ``'^1.22'`` is what CI tests on, no dependency bumped
        facts.bumps = [b for b in facts.bumps if b.name not in LANGUAGES]
    if all(PurePosixPath(p).suffix in (".py", ".pyi") for p in facts.paths):
        facts.raw_strings = raw_strings_edit(pairs, len(added_lines) + len(removed_lines), kept_lines)
    facts.list_items = [g for g in grown if g is not None] if grown and None not in grown else []
    code_alone = not test_added + test_removed + doc_added + doc_removed  # help texts read from code hunks only
    if helped and None not in helped and code_alone:
        facts.help_of = list(dict.fromkeys(name for name in helped if name))
    if unhelped and None not in unhelped and code_alone:
        facts.helps_removed = sum(n for n in unhelped if n)
    facts.commented = commented.read_edit(added_lines, removed_lines)
    if facts.commented is not None:
        facts.commented_name = commented.named(facts.commented, _defs(facts.commented.lines))
    raised, unraised = _mentions(_RAISE, code_added), _mentions(_RAISE, code_removed)
    facts.raises = sorted(raised - unraised)
    facts.raised_again = sorted(set(raised & unraised) - set(facts.raises))
    facts.handles = sorted(_mentions(_HANDLE, code_added) - _mentions(_HANDLE, code_removed))
    facts.comment_only = doc_lines > 0 and prose_lines == 0
    facts.explaining = (doc_lines, prose_lines)
    one_line_params = [(facts.owners.get(f, f), p) for f, p in _new_params(code_added, code_removed)]
    facts.params = list(dict.fromkeys(one_line_params + spread_params))[:3]
    facts.fields = [f for f in dict.fromkeys(fields_added) if f not in fields_removed][:5]
    facts.missing = _missing_checks(code_added, code_removed)
    facts.conditions = sum(1 for line in code_added + code_removed if _CONDITION.search(line))
    facts.conditions_changed = sum(
        1 for old, new in pairs if old.strip() != new.strip() and _CONDITION.search(old) and _CONDITION.search(new)
    )
    gone = _changelog_entries(list(map(uncredited, changelog_removed)))  # moved, converted or reworded: not new
    added_entries = _changelog_entries(list(map(uncredited, changelog_added)))
    gone_words = [_words(old) for old in gone]
    facts.changelog_entries = [e for e in added_entries if not _reworded(_words(e), gone_words, REWORDED_ENTRY)]
    facts.changelog_moved = _moved_entries(changelog_added, changelog_removed)
    facts.changelog_items = sum(1 for line in changelog_added if list_item(line))
    facts.changelog_reference = entry_reference(changelog_added)
    facts.changelog_fixes = changelog_fixes
    facts.references = [line.strip() for line in added_lines if ISSUE_FIXED.search(line)][:3]
    squash = lambda lines: Counter("".join(line.split()) for line in lines if line.strip())  # noqa: E731
    facts.whitespace_only = bool(added_lines or removed_lines) and squash(added_lines) == squash(removed_lines)
    facts.trailing_spaces = (
        bool(removed_lines)
        and all(line != line.rstrip() for line in removed_lines)
        and Counter(line.rstrip() for line in removed_lines) == Counter(added_lines)
    )
    facts.moved_only = (
        not facts.whitespace_only
        and bool(added_lines)
        and Counter(s.strip() for s in added_lines) == Counter(s.strip() for s in removed_lines)
    )
    facts.format_only = (
        not facts.whitespace_only
        and not facts.moved_only
        and bool(added_lines or removed_lines)
        and _layout_tokens(added_lines) == _layout_tokens(removed_lines)
    )
    facts.imports_touched = any(_IMPORT.match(line) for line in added_lines + removed_lines)
    # the code's names first: a test's or a page's are the code's examples
    facts.code_new_names = names_only_in(code_added, removed_lines + kept_lines)
    facts.new_names = facts.code_new_names or names_only_in(added_lines, removed_lines + kept_lines)
    facts.gone_names = names_only_in(code_removed, added_lines + kept_lines) or names_only_in(
        removed_lines, added_lines + kept_lines
    )
    markdown = all(PurePosixPath(p).suffix.lower() in MARKDOWN for p in facts.paths)
    facts.new_lines, facts.gone_lines = lines_named(added_lines, markdown), lines_named(removed_lines, markdown)
    if _examples_only(facts.paths, doc_added, added_fenced, removed_lines):
        facts.examples = max(1, sum(is_fence(text) for _, text in doc_added) // 2)
        facts.new_names = []  # an example's imports and calls are the docs' code, not names the change adds
        facts.new_lines = "an example" if facts.examples == 1 else "examples"
    # whitespace a string literal holds is the string's value: a layout change inside one is no formatting
    facts.tokens_same = (
        (facts.whitespace_only or facts.format_only)
        and not any(h.in_string for _, hunks in changes for h in hunks)
        and all(same_tokens(path, old, new) for path, old, new in hunk_sides)
    )
    if facts.format_only and not facts.tokens_same:
        facts.punctuation = punctuation_edit(added_lines, removed_lines)
    in_samples = _in_samples(facts.paths, doc_added, added_fenced) and _in_samples(
        facts.paths, doc_removed, removed_fenced
    )
    facts.sample_fixed = (
        in_samples and rewritten and len(pairs) <= SAMPLE_LINES and _only_rewritten(facts) and not _made_alike(pairs)
    )
    return facts


# A name as code writes it: a flag (``--max-depth``), a dotted or snake_case name, camelCase.
_NAME = re.compile(r"(?<![\w.-])(--?[A-Za-z][\w-]+|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)")
_NAME_LIKE = re.compile(r"^-|[a-z0-9][._][A-Za-z]|[a-z][A-Z]")
_RECEIVERS = ("self.", "this.", "cls.")
_QUOTES = {"'", '"', "`"}  # a flag a change declares or documents is quoted: ``"--max-depth"``, `` `-u` ``
# Started only where a run of such characters starts, and a local part is at most 64 long: a long
# line of them (a base64 blob) is read once, not once per character.
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]+(?:\.[\w-]+)+")
# Abbreviations, domains, and ``--help``: every command-line parser has it, so a change writing
# it mentions it ("See 'fd --help'") and adds no option.
_NOT_CODE_NAME = re.compile(r"^(?:e\.g|i\.e|etc|--help)$|\.(?:com|org|net|io|dev|txt)$|^www\.", re.IGNORECASE)
NAMES_KEPT = 3
REWORDED_WORDS = 2  # words a line may gain and still be reworded rather than written anew
NAME_LINES = 400  # lines read for names on each side


def names_only_in(lines: list[str], others: list[str]) -> list[str]:
    """The names written in ``lines`` and nowhere in ``others``, most written first (a receiver
    such as ``self.`` left out; dunders and one-word names are no name a title would use)."""
    found: Counter[str] = Counter()
    for line in lines[:NAME_LINES]:
        for name in _names_in(line):
            if _NAME_LIKE.search(name) and not name.startswith("__") and len(name) <= 40:
                found[name] += 0 if _NOT_CODE_NAME.search(name) else 1
    if not found:
        return []
    seen = {name for line in others for name in _names_in(line)}
    ranked = sorted(found, key=lambda name: (not name.startswith("-"), -found[name]))  # a flag names most
    return [name for name in ranked if found[name] and name not in seen][:NAMES_KEPT]


_URL = re.compile(r"\b[a-z][a-z+.-]*://\S+")
# A GitHub Actions expression, and the functions it calls (``toJSON(needs)``, ``hashFiles(...)``):
# the runner's, not the project's names.
_EXPRESSION = re.compile(r"\$\{\{.*?\}\}")
_EXPRESSION_CALL = re.compile(r"\b[A-Za-z]\w*\s*\(")
# A printf conversion and the word it is glued to: cobra's ``__%[1]s_debug`` is a template of
# names, none of them ``s_debug``.
_TEMPLATED = re.compile(r"%(?:\[\d+\])?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]\w*")


def _names_in(line: str) -> Iterator[str]:
    """The names ``line`` writes, each without its receiver (``self.``, ``this.``, ``cls.``); an
    email address is none (``allan.simon@supinfo.com`` in a contributors list), nor is a web
    address's path (``.../change_log/release-3.4/`` in a comment)."""
    line = _EXPRESSION.sub(lambda m: _EXPRESSION_CALL.sub("(", m.group(0)), line) if "${{" in line else line
    line = _TEMPLATED.sub(" ", line) if "%" in line else line
    text = _EMAIL.sub(" ", _URL.sub(" ", line))
    for m in _NAME.finditer(text):
        name = m.group(1)
        if name.startswith("-") and text[m.start() - 1 : m.start()] not in _QUOTES:
            continue  # a bare flag is an argument a command line passes (``pip install --editable .``)
        for receiver in _RECEIVERS:
            name = name.removeprefix(receiver)
        yield name


def _sides(lines: list[str]) -> tuple[list[str], list[str]]:
    """A hunk's old and new text, its unchanged lines in both: a line moved across them reads alike."""
    return [line[1:] for line in lines if line[:1] in " -"], [line[1:] for line in lines if line[:1] in " +"]


@dataclass(frozen=True)
class TreeEntries:
    """What a whole change adds to its changelogs, and the lines it changes in each code file."""

    entries: list[str] = field(default_factory=list)
    code_lines: dict[str, int] = field(default_factory=dict)  # path -> lines added and removed


def tree_entries(changes: list[tuple[Change, list[Hunk]]]) -> TreeEntries:
    """The entries ``changes`` add to their changelogs, as ``gather`` reads a plan's."""
    entries = gather([(c, hunks) for c, hunks in changes if is_changelog(c.file_path)]).changelog_entries
    code_lines: Counter = Counter()
    for change, hunks in changes:
        if _source_code(change.file_path):
            code_lines[change.file_path] += sum(len(side) for h in hunks for side in _split(h.lines))
    return TreeEntries(entries, {path: n for path, n in code_lines.items() if n})


def _source_code(path: str) -> bool:
    return not (
        is_doc_path(path) or is_test_path(path) or is_ci_path(path) or is_build_path(path) or is_lock_file(path)
    ) and not is_manifest(path)


def entries_about(facts: Facts, tree: TreeEntries) -> list[str]:
    """Of ``tree``'s entries, those about this plan's code: naming it, or the one entry of a change
    whose code is all this plan's (send 0.19.0's "Remove link renderization in html while
    redirecting", its one code change ``redirect``'s, which it names by no name)."""
    named = entries_naming_code(facts, tree.entries)
    if named or len(tree.entries) != 1 or not tree.code_lines:
        return named
    return tree.entries if all(facts.lines.get(path) == n for path, n in tree.code_lines.items()) else []


# A name an entry may be matched by: one a sentence would not use as a word ("run", "main" are).
_DISTINCT_NAME = re.compile(r"^(?!__)(?:\w*_\w*|[a-z]+[A-Z]\w*|\w{6,})$")


def entries_naming_code(facts: Facts, entries: list[str]) -> list[str]:
    """Of ``entries`` (those the whole change adds to its changelogs), the ones naming a definition
    this plan's code adds or changes, or a name only its code adds, by a distinct name
    (``striptags``, ``call_extra()``, ``anyio.EndOfStream``), or by any such name or a module its
    code changes marked as code (body-parser's "add `depth` option", qs's "[Fix] `parse`: ..." of
    ``lib/parse.js``): where a release's block of entries is one hunk, it goes to one commit, and
    the other commits' authors' words are there."""
    code = (*facts.code_added_defs, *facts.code_changed_defs, *facts.code_new_names, *(d.name for d in facts.defaults))
    parts = {part for n in code for part in n.split(".")}
    names = {part for part in parts if _DISTINCT_NAME.match(part)}
    marked = parts | {PurePosixPath(p).stem for p in facts.paths if not (is_doc_path(p) or is_test_path(p))}
    return [
        e
        for e in entries
        if names & set(re.findall(r"[A-Za-z_]\w*", e)) or marked & set(re.findall(r"`([A-Za-z_][\w-]*)`", e))
    ]


def is_changelog(path: str) -> bool:
    """A changelog page (``CHANGES.rst``, ``HISTORY``), not a module named so (``changelog.py``) nor
    one built from it (Mako's ``doc/changelog.html``: its lines are markup and script, no entries)."""
    name = PurePosixPath(path)
    return name.stem.lower() in CHANGELOGS and is_doc_path(path) and name.suffix.lower() in _PROSE_SUFFIXES


def _pending(path: str, lines: list[str]) -> list[str]:
    """A changelog written whole: only what comes before the heading of its first released version
    is this change's (cobra's new CHANGELOG.md, its own entry under ``Pending``, then v1.0.0's notes)."""
    written = [(path, line) for line in lines]
    headed = _headed(written)
    unreleased = set(_unreleased(written, headed))
    released = (at for at, heading in headed if _VERSION_IN_TEXT.search(heading) and heading not in unreleased)
    return lines[: next(released, len(lines))]


# A changelog heading over fixes: Keep a Changelog's "Fixed", "Bug fixes", express's "🐞 Bug fixes".
_FIXES_HEADING = re.compile(r"(?:[^\w\s]+\s*)?(?:bug\s*-?\s*fix(?:es)?|fix(?:es|ed)?|bugs?)\s*:?", re.I)


def _under_fixes(lines: list[str]) -> bool:
    """Whether the first entry a changelog hunk adds sits under a heading of fixes the hunk shows."""
    first = next((i for i, line in enumerate(lines) if line[:1] == "+" and list_item(line[1:])), None)
    if first is None:
        return False
    headings = (markdown_heading(line[1:]) for line in reversed(lines[:first]))
    heading = next((h for h in headings if h is not None), "")
    return _FIXES_HEADING.fullmatch(heading.strip()) is not None


def _changelog_entries(added: list[str]) -> list[str]:
    """The first sentence of each entry ``added`` holds, in order, each once; the lines read as
    one entry where none is a list item."""
    entries = (changelog_entry(lines, credits=False) for lines in entry_lines(added) or [added] if lines)
    return list(dict.fromkeys(e for e in entries if e))


# An entry added sharing this share of its words with one removed is that one as it was, or reworded
# (pathspec's entry of 0.12.0 given "(with a leading underscore)" in 0.12.1's release, which adds none).
REWORDED_ENTRY = 0.6


def _moved_entries(added: list[str], removed: list[str]) -> int:
    """How many entries ``added`` writes word for word as ``removed`` took them out: moved to
    another place (a release's section), not edited where they stood (a reference added)."""

    def whole(lines: list[str]) -> Counter:
        return Counter(" ".join(line.strip() for line in entry) for entry in entry_lines(lines))

    return sum((whole(added) & whole(removed)).values())


def _standing(change: Change, hunks: list[Hunk], old_text: OldText | None) -> tuple[list[str], list[str]]:
    """Lines of the file as it was outside ``hunks``, and those of them that stand after the change.
    Where ``old_text`` reads the file, both are its lines ``hunks`` leave. Else, before: its other
    hunks' unchanged and removed lines and the line git heads each hunk with (``var connect =
    require('connect')``); after: nothing known (a hunk's heading line may be one the plan changes).
    A name found before stood there already, so swapping to it is no rename; a name found after is
    not gone, so swapping from it is none either."""
    old = old_text(hunks[0]) if old_text is not None and hunks else None
    if old is not None:
        removed = Counter(line[1:] for h in hunks for line in h.lines if line[:1] == "-")
        left = [line for line in old if not _taken(removed, line)]  # in order: a string's lines stay one string
        names = code_names(change.file_path, left)  # "the error messages" in a docstring writes no name
        return (left, left) if names is None else ([" ".join(names)],) * 2
    mine = {id(h) for h in hunks}
    other = [line[1:] for h in change.hunks if id(h) not in mine for line in h.lines if line[:1] in " -"]
    return other + [h.header.split("@@")[-1] for h in change.hunks if h.header], []


def _taken(counts: Counter, line: str) -> bool:
    """Whether ``line`` is one of ``counts`` still to take, taking it."""
    if counts[line] <= 0:
        return False
    counts[line] -= 1
    return True


def _replacements(renames: list[tuple[str, str]], added: list[str], removed: list[str]) -> list[tuple[str, str]]:
    """The swaps of ``renames`` that are no rename: the old name still written in an added or
    unchanged line, the new one already in a removed or unchanged line, or the new one not defined
    by the change (``stripColor`` replaced by a built-in's name, ``.trimRight()`` by ``.trimEnd()``:
    a name is renamed where it is defined)."""
    plus = {t for line in added for t in _TOKEN.findall(line)}
    minus = {t for line in removed for t in _TOKEN.findall(line)}
    defined_now = set(_defs(added)) | {m.group(1) for line in added if (m := _ASSIGNED.match(line))}
    return [(old, new) for old, new in renames if old in plus or new in minus or new not in defined_now]


# ``logger = logging.getLogger(__name__)``, ``const basePath = ...``: a name defined by assignment.
_ASSIGNED = re.compile(r"^\s*(?:(?:var|let|const)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=(?!=)")


_TEST_CASE = re.compile(
    r"""^\s*(?:(?:it|test)(?:\.\w+)?\s*\(\s*["'`]|(?:async\s+)?def\s+test_|func\s+Test[A-Z_]|#\[test\])"""
)


def _cases(lines: list[str]) -> int:
    """Test cases the lines open: ``it("...")``, ``test("...")``, ``def test_``, ``func TestX``, ``#[test]``."""
    return sum(1 for line in lines if _TEST_CASE.match(line))


def _layout_tokens(lines: list[str]) -> Counter:
    """The tokens of the lines with what formatters change taken out: whitespace, line breaks,
    quote marks, commas and brackets (black splitting a call over lines, adding a trailing
    comma, turning ' into "; isort reordering imports)."""
    return Counter(t for line in lines for t in LAYOUT_TOKEN.findall(line))


def _layout_only(plus: list[str], minus: list[str]) -> bool:
    """Whether a hunk's lines only change layout (both sides hold the same tokens)."""
    return bool(plus) and bool(minus) and _layout_tokens(plus) == _layout_tokens(minus)


def _patterns(lines: list[str]) -> list[str]:
    """The patterns lines of an ignore file hold, each once: not blank lines or comments."""
    return list(dict.fromkeys(text for line in lines if (text := line.strip()) and not text.startswith("#")))


def _headings(lines: list[tuple[str, str]], fenced: AbstractSet[int] = frozenset()) -> list[str]:
    """The headings ``lines`` add: Markdown's ``## Title``, and reStructuredText's title over a
    line of ``=``, ``-`` or ``~`` as long as it; none at the places ``fenced``."""
    return [heading for _, heading in _headed(lines, fenced)]


def _headed(lines: list[tuple[str, str]], fenced: AbstractSet[int] = frozenset()) -> list[tuple[int, str]]:
    """The headings ``lines`` add, each with its place among them; a line ``fenced`` (inside a fenced
    code block, whose ``# curl ...`` is a shell comment) is none."""
    return [
        (at, heading)
        for at in range(len(lines))
        if at not in fenced and (heading := _heading_at(lines, at)) is not None
    ]


def _fenced(hunk: Hunk, side: str) -> list[bool]:
    """For each line of ``hunk``'s ``side`` (``+`` its added lines, ``-`` its removed ones), whether it
    is a fence or inside a fenced code block, read in that side's text (its unchanged lines and its
    own) from the block open where it starts (``in_fence``)."""
    inside, out = hunk.in_fence, []
    for line in hunk.lines:
        if line[:1] not in (" ", side):
            continue
        fence = is_fence(line[1:])
        if line[:1] == side:
            out.append(inside or fence)
        inside ^= fence
    return out


_VERSION_IN_TEXT = re.compile(rf"(?<![\d.])v?({NUMBERS}{PEP_440})(?![\d.])")  # fd_7.5.0_amd64.deb too


def _version_docs(hunk_sides: list[tuple[str, list[str], list[str]]]) -> dict[str, set[str]]:
    """Docs pages (changelogs aside) whose every changed line is its old line with other versions
    written in (``rev: 25.1.0`` -> ``rev: 25.9.0``), with the versions they now write."""
    found: dict[str, set[str]] = {}
    spoiled: set[str] = set()
    for path, removed, added in hunk_sides:
        if not is_doc_path(path) or is_changelog(path) or path in spoiled:
            continue
        versions = _versions_moved(removed, added)
        if versions is None:
            spoiled.add(path)
            found.pop(path, None)
        else:
            found.setdefault(path, set()).update(versions)
    return {path: versions for path, versions in found.items() if versions}


def _versions_moved(removed: list[str], added: list[str]) -> set[str] | None:
    """The versions ``added`` writes where ``removed`` had others, line for line; None where
    the lines differ in more than versions."""
    if len(removed) != len(added):
        return None
    out: set[str] = set()
    for old, new in zip(removed, added):
        if _VERSION_IN_TEXT.sub("", old) != _VERSION_IN_TEXT.sub("", new):
            return None
        out |= set(_VERSION_IN_TEXT.findall(new)) - set(_VERSION_IN_TEXT.findall(old))
    return out


def _heading_at(lines: list[tuple[str, str]], at: int) -> str | None:
    path, line = lines[at]
    if PurePosixPath(path).suffix.lower() not in _PROSE_SUFFIXES:
        return None  # docs/conf.py's "# -- sphinx-copybutton --" is a comment (jsonschema 4.22.0)
    below = lines[at + 1][1] if at + 1 < len(lines) and lines[at + 1][0] == path else None
    if (heading := markdown_heading(line)) is not None:
        return _heading_text(heading)
    markdown = PurePosixPath(path).suffix.lower() in MARKDOWN
    return _heading_text(line.strip()) if is_title(line, below, markdown=markdown) else None


# The line a changelog puts under a version it has not released: ``Unreleased``, ``*Unreleased*``.
_UNRELEASED = re.compile(r"^[\W_]*unreleased\b", re.IGNORECASE)
# A heading naming the release to come: ``[Unreleased]``, fd's ``# Upcoming release``.
_UNRELEASED_HEADING = re.compile(r"\bunreleased\b|\bupcoming (?:release|version)\b", re.IGNORECASE)


def _unreleased(lines: list[tuple[str, str]], headed: list[tuple[int, str]]) -> list[str]:
    """The headings added for a version not yet released: ``## [Unreleased]``, ``## 2.0
    (unreleased)``, or a heading whose first line below says ``Unreleased`` (Pallets' ``Version
    8.3.3`` over ``Unreleased``). ``headed``: the headings ``_headed`` found in ``lines``."""
    found = []
    for at, heading in headed:
        below = [
            line.strip()
            for path, line in lines[at + 1 : at + 4]
            if path == lines[at][0] and line.strip() and not is_underline(line)
        ]
        if _UNRELEASED_HEADING.search(heading) or (below and _UNRELEASED.match(below[0])):
            found.append(heading)
    return found


def _section_of(hunk: Hunk) -> str | None:
    """The title of the docs section a hunk edits, where its header names one (``enclosing``
    writes it there as a Markdown heading)."""
    heading = markdown_heading(hunk.header.split("@@", 2)[-1].strip())
    return _heading_text(heading) if heading is not None else None


def _new_headings(added: list[str], removed: list[str]) -> list[str]:
    """Headings added that were not there before in other case or spacing (``on Linux`` -> ``On Linux``
    documents nothing new)."""
    before = {" ".join(h.casefold().split()) for h in removed}
    return [h for h in added if " ".join(h.casefold().split()) not in before]


def _retitled(added: list[tuple[str, str]], removed: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(old, new) of the Markdown headings reworded, where every line the docs change is one."""
    lines = [line for _, line in added + removed if line.strip()]
    if not lines or any(markdown_heading(line) is None for line in lines):
        return []
    old, new = _headings(removed), _headings(added)
    if len(old) != len(new) or _new_headings(new, old) == []:
        return []
    return [(o, n) for o, n in zip(old, new) if o.casefold() != n.casefold()]


def _heading_text(heading: str) -> str:
    """A heading as it reads: a link's text without its address, no anchor (``{#install}``), HTML
    tag, bold or italic markers (``[Install](#install)`` -> ``Install``); code spans are kept, a
    reStructuredText literal as one (````PYPI_TOKEN```` -> ```PYPI_TOKEN```)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"``([^`]+)``", r"`\1`", text)
    text = re.sub(r"\s*\{#[^}]*\}\s*$", "", text)
    text = re.sub(r"</?[A-Za-z][^>]*>", "", text)
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text)
    text = re.sub(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])", r"\1", text)  # italics: ``Running *fd*``
    return text.strip() or heading


def _link_target(hunks: list[Hunk]) -> str | None:
    """The path a symbolic link now points to: its one added line."""
    added = [line[1:] for hunk in hunks for line in hunk.lines if line[:1] == "+"]
    return added[0] if len(added) == 1 else None


def _pointer_commits(hunks: list[Hunk]) -> tuple[str | None, str | None]:
    """A submodule's old and new commit, from its ``Subproject commit`` lines."""
    old = new = None
    for line in (line for hunk in hunks for line in hunk.lines):
        if line[1:].startswith(SUBPROJECT):
            sha = line[1 + len(SUBPROJECT) :].strip().removesuffix("-dirty")
            if line[:1] == "-":
                old = sha
            elif line[:1] == "+":
                new = sha
    return old, new


def _explaining_lines(lines: list[str]) -> tuple[int, int]:
    """Changed lines that are comments or inside a docstring, and changed lines that are not
    (blank lines count as neither): ``changes.comments.explaining``."""
    flags = explaining(lines)
    return flags.count(True), flags.count(False)


def _commented_def(lines: list[str]) -> str | None:
    """The definition a comment the hunk changes sits right above (Go's, JavaScript's doc
    comments), which the hunk's edits would otherwise count for the one before it."""
    commented = False
    for line in lines:
        text = line[1:]
        if COMMENT.match(text) or text.strip() == "*/":
            commented = commented or line[:1] in "+-"
        elif commented and (found := _defs([text])):
            return found[0]
        elif text.strip():
            commented = False
    return None


def line_counts(change: Change, hunks: list[Hunk]) -> tuple[int, int]:
    """The lines ``hunks`` add to ``change``'s file and take out of it, as ``gather`` counts them
    (a submodule's pointer moved counts none)."""
    if GITLINK in (change.old_mode, change.new_mode):
        return 0, 0
    sides = [_split(hunk.lines) for hunk in hunks]
    return sum(len(plus) for plus, _ in sides), sum(len(minus) for _, minus in sides)


def _split(lines: list[str]) -> tuple[list[str], list[str]]:
    plus = [line[1:] for line in lines if line[:1] == "+"]
    minus = [line[1:] for line in lines if line[:1] == "-"]
    return plus, minus


# The call a line makes first: ``.help("See --max-depth")`` -> ``help``; ``panic("...")`` -> ``panic``.
_CALL = re.compile(r"^\s*(?:[\w$]+\s*[.:]{1,2}\s*)*\.?([A-Za-z_$][\w$]*!?)\s*\(")


def _examples_only(
    paths: list[str], doc_added: list[tuple[str, str]], fenced: AbstractSet[int], removed: list[str]
) -> bool:
    """Docs that only gain fenced blocks of code: starlette's SessionMiddleware example. A command
    to run makes them instructions (``prose.py``), and a line added inside a block adds no example."""
    written = [at for at, (_, text) in enumerate(doc_added) if text.strip()]
    return (
        bool(written)
        and not removed
        and all(is_doc_path(p) and not is_changelog(p) for p in paths)
        and all(at in fenced for at in written)
        and any(is_fence(text) for _, text in doc_added)
        and not any(runs_command(text) for _, text in doc_added)
    )


SAMPLE_LINES = 3  # lines of an example rewritten, at most, for the change to read as a fix of it


def _in_samples(paths: list[str], doc_lines: list[tuple[str, str]], fenced: AbstractSet[int]) -> bool:
    """Whether ``paths`` are all docs (not changelogs) whose ``doc_lines`` (one side's) are each
    inside a code block (httpx's quickstart sample, click's ``.. click:example::``), no fence among
    them, or all files of one example (click's ``examples/naval``)."""
    if example_of(paths) is not None:
        return True
    return all(is_doc_path(p) and not is_changelog(p) for p in paths) and all(
        at in fenced and not is_fence(text) for at, (_, text) in enumerate(doc_lines) if text.strip()
    )


def _made_alike(pairs: list[tuple[str, str]]) -> bool:
    """Whether several rewritten lines each make one edit (Flask 2.2.3 taking ``(object)`` off two
    classes of its dispatch examples): a pattern applied, not a mistake of each put right."""
    return len(pairs) > 1 and len({_edit(old, new) for old, new in pairs}) == 1


def _edit(old: str, new: str) -> tuple[str, str]:
    """What ``new`` writes in place of ``old``, the text they start and end with alike left out."""
    head = len(os.path.commonprefix([old, new]))
    tail = len(os.path.commonprefix([old[head:][::-1], new[head:][::-1]]))
    return old[head : len(old) - tail], new[head : len(new) - tail]


def _only_rewritten(facts: Facts) -> bool:
    """A change whose rewritten lines say no more than a fix of them: no word respelled, no name
    swapped, no layout alone, nothing new defined (each of those is titled as what it is), no import
    changed (starlette's config sample taking ``DatabaseURL``: the example follows a new API)."""
    return not (
        facts.imports_touched
        or facts.typos
        or facts.renames
        or facts.whitespace_only
        or facts.format_only
        or facts.added_defs
        or facts.new_files
        or facts.deleted_files
    )


MARKDOWN = (".md", ".markdown", ".mdx")
_PROSE_SUFFIXES = DOC_SUFFIXES | set(MARKDOWN) | {""}  # files of prose: a changelog, headings


def lines_named(lines: list[str], markdown: bool = False) -> str:
    """What ``lines`` are, for a title that has no name to give them: headings (of ``markdown``,
    where ``#`` opens no comment), comments, list entries, imports, a check (an ``if`` first), the
    call every one makes (``help calls``), else how many lines (``a line``, ``3 lines``)."""
    text = [line.strip() for line in lines if line.strip() and line.strip() not in "{}();,"]
    if not text:
        return ""
    if markdown and all(markdown_heading(line) is not None for line in text):
        return "a heading" if len(text) == 1 else "headings"
    if all(COMMENT.match(line) for line in text):
        return "a comment" if len(text) == 1 else "comments"
    if all(list_item(line) for line in text):
        return "an entry" if len(text) == 1 else f"{len(text)} entries"
    if all(_IMPORT.match(line) for line in text):
        return "an import" if len(text) == 1 else "imports"
    if _GUARD.match(text[0]):
        return "a check"
    calls = {m.group(1) if (m := _CALL.match(line)) else None for line in text}
    if len(calls) == 1 and (call := calls.pop()) is not None and call not in _NOT_CALLS:
        return f"a {call} call" if len(text) == 1 else f"{call} calls"
    return "a line" if len(text) == 1 else f"{len(text)} lines"


_GUARD = re.compile(r"^(?:if|unless|guard)\b")
_NOT_CALLS = frozenset({"if", "for", "while", "switch", "return", "function", "def", "func"})


def _defs(lines: list[str]) -> list[str]:
    """The names the lines define, in order, each once."""
    return [name for name in dict.fromkeys(map(def_name, lines)) if name is not None]


def _members_of_classes(lines: list[str]) -> set[str]:
    """The names defined inside the classes ``lines`` open (semver 7.6.2's new ``LRUCache`` was
    titled "add LRUCache, get and others"): each line deeper than the class line below it."""
    members: set[str] = set()
    depth: int | None = None  # the class line's indentation while inside a class
    for line in lines:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if depth is not None and indent > depth:
            if (name := def_name(line)) is not None:
                members.add(name)
            continue
        depth = indent if _CLASS.match(line) else None
    return members


CONSTRUCTORS = frozenset({"__init__", "__new__", "initialize"})


def known_by_class(name: str) -> bool:
    """A constructor, or a Python special method (``__iter__``, ``__eq__``): what it does is its
    class's behaviour, so an edit inside it is named by the class."""
    return name in CONSTRUCTORS or len(name) > 4 and name.startswith("__") and name.endswith("__")


@lru_cache(maxsize=1 << 14)  # code lines are read twice: among all lines, then among code's
def def_name(line: str) -> str | None:
    if not any(cue in line for cue in _DEF_CUES):
        return None
    for pattern in _DEF_PATTERNS:
        m = pattern.match(line)
        if m:
            name = _MEMBER_NOISE.sub("", m.group(1))
            return None if name in _NOT_DEFS or name == "module.exports" else name
    return None


_CLOSED = re.compile(r"^[}\]][);,]*\s*$")  # a definition's closing brace at the start of a line (Go, Rust, C, JS)


def _changed_defs(facts: Facts, hunk: Hunk, plus: list[str], minus: list[str]) -> Counter:
    """The functions a hunk edits inside, with the lines it changes in each: the hunk's section
    (git's function context, or the definition ``enclosing`` found above the hunk in its file)
    for changes above the hunk's first definition, then the last definition above
    each changed line (a changed signature counts for its function). Blank lines edit no
    function, and the decorators added just above a definition are that definition's."""
    section = hunk.header.split("@@", 2)[-1].removeprefix(" ").rstrip()  # as indented in its file
    found = _defs([section]) if section.strip() else []
    current = found[0] if found else None
    owner = current if _CLASS.match(section) else None  # the class a constructor's edit is named by
    edited: Counter = Counter()

    def edit(name: str | None, count: int) -> None:
        if count and name:
            edited[name] += count
            if name not in facts.changed_defs:
                facts.changed_defs.append(name)

    leading = 0  # decorator lines added just above whatever line comes next
    opened = 0  # brackets a decorator added over several lines (``@click.option(``) leaves open
    for line in hunk.lines:
        found = _defs([line[1:]])
        if found:
            current = found[0]
            if _CLASS.match(line[1:]):
                owner = current
            elif owner and known_by_class(current):
                facts.owners.setdefault(current, owner)
                current = owner
        elif _CLOSED.match(line[1:]) and line[:1] == " ":
            current = owner = None  # a top-level brace closes the definition: what follows is outside it
            continue
        text = line[1:].strip()
        if line[:1] == "+" and (text.startswith("@") and not found or opened > 0):
            leading += 1
            opened = max(0, opened + text.count("(") - text.count(")"))
            continue
        opened = 0
        if leading and line[:1] == " " and text.startswith("@"):
            continue  # the decorators above the definition the added ones go with
        edit(current, leading + (1 if line[:1] in "+-" and text else 0))
        leading = 0
    edit(current, leading)
    return edited


# A parameter on a line of its own (``timeout: float = 5.0,``, ``*args,``), and what closes a
# signature spread over lines (Python's ``) -> None:``, TypeScript's ``): Promise<X> {``).
# Atomic groups and possessive quantifiers: an annotation or a default ends at its last non-blank,
# taken once, so a line of many blanks is read in linear time, never by trying every split of them.
_PARAM_LINE = re.compile(
    r"^\s*+(?:\*{1,2}|\.\.\.)?+([A-Za-z_$][\w$]*+)\??+\s*+(?::\s*+(?>[^=,]*[^=,\s]))?\s*+"
    r"(?:=\s*+(?>[^,]*[^,\s]))?\s*+,?+\s*$"
)
_SIGNATURE_END = re.compile(r"^\s*\)\s*(?:->\s*[^:]+)?:\s*$|^\s*\)\s*(?::\s*[^{;=]+)?\{\s*$")
_SIGNATURE_OPEN = re.compile(r"\(\s*$")


def signature_params(hunk: Hunk) -> list[tuple[str, str]]:
    """(function, parameter) for each parameter line a hunk adds to a signature spread over lines:
    the lines around it are parameters up to the line closing the signature and the one opening
    it (``def fetch(``), or the start of the hunk, whose section then names the function (a
    constructor's is its class)."""
    lines = hunk.lines
    found = []
    # a signature only spread over lines keeps the parameters its removed lines wrote
    before = {t for line in lines if line[:1] == "-" for t in _TOKEN.findall(line[1:])}
    for at, line in enumerate(lines):
        if line[:1] != "+" or not (m := _PARAM_LINE.match(line[1:])) or m.group(1) in _NOT_PARAMS | before:
            continue
        if _closes_signature(lines[at + 1 :]) and (name := _signature_owner(hunk, lines[:at])):
            found.append((name, m.group(1)))
    return found


def _closes_signature(below: list[str]) -> bool:
    for line in below:
        if line[:1] == "-":
            continue
        if _SIGNATURE_END.match(line[1:]):
            return True
        if not _PARAM_LINE.match(line[1:]):
            return False
    return False


def _signature_owner(hunk: Hunk, above: list[str]) -> str | None:
    """The function whose signature the lines ``above`` a parameter are in, where that signature
    was there before (its opening line unchanged): a new or rewritten one gains no parameter."""
    for line in reversed(above):
        listed = _PARAM_LINE.match(line[1:]) or line[:1] == "+" and line.rstrip().endswith(",")  # url: Union[str, URL],
        if line[:1] == "-" or listed and not _SIGNATURE_OPEN.search(line):
            continue
        name = def_name(line[1:]) if line[:1] == " " and _SIGNATURE_OPEN.search(line) else None
        return name if name is None or not known_by_class(name) else _class_above(above) or _section_name(hunk)
    return _section_name(hunk)


_CLASS = re.compile(r"^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)")


def _class_above(above: list[str]) -> str | None:
    """The class a constructor is in, where the hunk shows its opening line (git's header names
    the definition before the hunk, often another class)."""
    for line in reversed(above):
        if line[:1] != "+" and (m := _CLASS.match(line[1:])):
            return m.group(1)
    return None


def _section_name(hunk: Hunk) -> str | None:
    found = _defs([hunk.header.split("@@", 2)[-1].removeprefix(" ").rstrip()])
    return found[0] if found else None


_PARAMS = re.compile(r"\(([^()]*(?:\([^()]*\)[^()]*)*)\)")
_PARAM_NAME = re.compile(r"^\s*(?:\*{1,2}|\.\.\.)?\s*(?:(?:public|private|readonly|const|final)\s+)*([A-Za-z_$][\w$]*)")
_NOT_PARAMS = {"self", "cls", "this"}
TYPED_SUFFIXES = {".py", ".pyi", ".ts", ".tsx", ".mts", ".cts"}
_ANNOTATED = re.compile(
    r"^\s*(?:(?:public|private|protected|readonly)\s+)*([A-Za-z_$][\w$]*)\??\s*:\s*([^=]+?)\s*(=.*)?[,;]?\s*$"
)


def _retyped(pairs: list[tuple[str, str]]) -> list[str]:
    """``template_folder: str = None`` -> ``template_folder: str | PathLike = None``: the names
    whose annotation a rewritten line changes, and nothing else about them."""
    found = []
    for old, new in pairs:
        a, b = _ANNOTATED.match(old), _ANNOTATED.match(new)
        if a and b and a.group(1) == b.group(1) and a.group(2) != b.group(2) and a.group(3) == b.group(3):
            found.append(a.group(1))
    return found


# A field declared in a class body, an interface or a struct, by the file's language: Python's
# ``    mask_initial_release: bool = False`` one level into a class (a function's local is none),
# TypeScript's ``  includeCommitAuthors?: boolean;``, Go's ``\tTimeout time.Duration `json:"timeout"```.
_FIELD = {
    ".py": re.compile(r"^ {4}([a-z_][a-z0-9_]*)\s*:\s*[A-Za-z_][^=]*(?:=.*)?$"),
    ".ts": re.compile(r"^\s+(?:readonly\s+)?([A-Za-z_$][\w$]*)\??\s*:\s*[^=;(]+;\s*$"),
    ".go": re.compile(r"^\t([A-Z]\w*)\s+(?:(?:func|chan)\b.*|[\w.*\[\]]+(?:\s+`[^`]*`)?)\s*$"),
}
_FIELD[".tsx"] = _FIELD[".mts"] = _FIELD[".cts"] = _FIELD[".ts"]
_TOP_LEVEL = re.compile(r"^(?:class|(?:async\s+)?def)\s")
# a class attribute assigned without a type: annotating it later declares no new field
_PY_ASSIGNED = re.compile(r"^ {4}([a-z_][a-z0-9_]*)\s*=(?!=)")


def _fields(path: str, hunk: Hunk) -> tuple[list[str], list[str]]:
    """The fields the hunk's added and removed lines declare, where ``path``'s language declares
    them so; in Python only inside a class (the hunk's header or its lines open it)."""
    suffix = PurePosixPath(path).suffix
    pattern = _FIELD.get(suffix)
    if pattern is None:
        return [], []
    header = re.match(r"^@@[^@]*@@\s?(.*)$", hunk.header or "")
    in_class = suffix != ".py" or bool(header and header.group(1).startswith("class "))
    added: list[str] = []
    removed: list[str] = []
    for line in hunk.lines:
        sign, text = line[:1], line[1:]
        if _TOP_LEVEL.match(text):
            in_class = suffix != ".py" or text.startswith("class ")
        elif in_class and sign in "+-" and (m := pattern.match(text)):
            (added if sign == "+" else removed).append(m.group(1))
        elif in_class and sign == "-" and suffix == ".py" and (m := _PY_ASSIGNED.match(text)):
            removed.append(m.group(1))
    return added, removed


def _new_params(added: list[str], removed: list[str]) -> list[tuple[str, str]]:
    """Parameters added to a function whose old signature the diff also shows."""

    def signatures(lines: list[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for line in lines:
            name = None if _CLASS.match(line) else def_name(line)  # a class's brackets hold its bases
            m = _PARAMS.search(line) if name else None
            if name and m and name not in out:
                out[name] = [p.group(1) for part in _top_level(m.group(1)) if (p := _PARAM_NAME.match(part))]
        return out

    before, after = signatures(removed), signatures(added)
    return [
        (name, p)
        for name, params in after.items()
        if name in before
        for p in params
        if p not in before[name] and p not in _NOT_PARAMS
    ][:3]


_OPENS, _CLOSES = "([{<", ")]}>"


def _top_level(params: str) -> list[str]:
    """``params`` cut at the commas between them, not those inside a type's brackets (execnet's
    ``write: Callable[[bytes], None] | None = None`` is one parameter, no ``None``)."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(params):
        if char in _OPENS:
            depth += 1
        elif char in _CLOSES and not (char == ">" and params[at - 1 : at] == "="):  # ``=>`` closes nothing
            depth = max(0, depth - 1)
        elif char == "," and depth == 0:
            parts.append(params[start:at])
            start = at + 1
    return [*parts, params[start:]]


_MISSING = [
    re.compile(r"\bif\s+not\s+([A-Za-z_][\w.]*)\s*:"),  # Python: if not config:
    re.compile(r"\b([A-Za-z_][\w.]*)\s+is\s+None\b"),  # config is None
    re.compile(r"\bif\s*\(\s*!\s*([A-Za-z_$][\w$.]*)\s*\)"),  # if (!config)
    re.compile(r"\b([A-Za-z_$][\w$.]*)\s*[!=]==?\s*(?:null|undefined|nil)\b"),  # config == null, x != nil
    re.compile(r"\b([A-Za-z_$][\w$]*)\?\."),  # config?.path
]
# A value tested whole, as present: ``if (part.name) {``, ``if config:``; the same check its
# absence turned round (express's ``if (!part.name) return``) handles nothing new.
_PRESENT = [
    re.compile(r"\bif\s+([A-Za-z_][\w.]*)\s*:"),
    re.compile(r"\bif\s*\(\s*([A-Za-z_$][\w$.]*)\s*\)"),
]
_NOT_MISSING = {"err", "error", "e", "ok", "self", "this", "result", "res", "ret", "exc"}


def _missing_checks(added: list[str], removed: list[str]) -> list[str]:
    """Names the added lines newly test for being absent (None, null, undefined, nil, falsy)."""

    def checked(lines: list[str]) -> list[str]:
        return [m.group(1).rsplit(".", 1)[-1] for line in lines for pattern in _MISSING for m in pattern.finditer(line)]

    present = [
        m.group(1).rsplit(".", 1)[-1] for line in removed for pattern in _PRESENT for m in pattern.finditer(line)
    ]
    before = set(checked(removed) + present)
    return [n for n in dict.fromkeys(checked(added)) if n not in before and n.lower() not in _NOT_MISSING][:3]


def _line_pairs(lines: list[str]) -> list[tuple[str, str]]:
    """(removed, added) line pairs of each block of equal size: rewrites."""
    pairs: list[tuple[str, str]] = []
    minus: list[str] = []
    plus: list[str] = []
    for line in [*lines, " "]:
        sign = line[:1]
        if sign == "\\":  # "\ No newline at end of file": the line above it is paired as any other
            continue
        if sign == "-":
            if plus:
                minus, plus = [], []
            minus.append(line[1:])
        elif sign == "+":
            plus.append(line[1:])
        else:
            if minus and len(minus) == len(plus):
                pairs.extend(zip(minus, plus))
            minus, plus = [], []
    return pairs


def _options(added: list[str], removed: list[str]) -> list[str]:
    """Command-line flags added (argparse, click, typer; clap, pflag, commander): the longest spelling of each."""

    def flags(lines: list[str]) -> list[str]:
        found = []
        for at, line in enumerate(lines):
            if _OPTION_OPENED.search(line):  # ``@click.option(`` with its flags on the lines below
                line = line.rstrip() + " ".join(part.strip() for part in lines[at + 1 : at + 3])
            m = _OPTION.search(line)
            if m:
                found.append(max((f for f in m.groups() if f), key=len))
            elif other := _OTHER_OPTIONS.search(line):
                name = next(f for f in other.groups() if f)
                found.append(name if name.startswith("-") else f"--{name}")
        return found

    before = set(flags(removed))
    return [f for f in dict.fromkeys(flags(added)) if f not in before]


def _imports(added: list[str], removed: list[str]) -> list[str]:
    def modules(lines: list[str]) -> list[str]:
        return [next(g for g in m.groups() if g) for line in lines if (m := _IMPORT.match(line))]

    before = set(modules(removed))
    return [name for name in dict.fromkeys(modules(added)) if name not in before]


def _typos(pairs: list[tuple[str, str]], changed: int) -> tuple[list[tuple[str, str]], bool]:
    """Words respelled in rewritten lines ("recieve" -> "receive"), and whether that is all
    the change does: every changed line is one of the pairs, which differ in such words only.
    Of ``changed`` lines (0: any number), the respelled ones must be at least half: one word
    respelled among 40 lines of new doc comments does not make the change a typo fix."""
    found: list[tuple[str, str]] = []
    only = bool(pairs) and 2 * len(pairs) == changed
    respelled_lines = 0
    for old, new in pairs:
        if old == new:  # only the newline at the file's end added or taken away
            changed -= 2 if changed else 0
            continue
        a, b = _WORD.findall(without_links(old)), _WORD.findall(without_links(new))  # a new address is no typo
        diffs = [(x, y) for x, y in zip(a, b) if x != y] if len(a) == len(b) else []
        respelled = [(x, y) for x, y in diffs if _respelled(x, y)]
        if respelled and len(respelled) == len(diffs):
            found += [d for d in respelled if d not in found]
            respelled_lines += 2
        else:
            only = False
    if changed and 2 * respelled_lines < changed:
        return [], False
    return found[:3], only and bool(found)


def _respelled(a: str, b: str) -> bool:
    """Two spellings of one word: letters only, 4 or more, 1 or 2 edits apart, and not one the
    other with a suffix or a prefix (``issue``/``issues``, ``http``/``https``, ``lstrip``/``strip``
    are not typos). Of a name written in parts (``urlib_response``, ``normalizeInvibleParens``),
    one part respelled, the rest as they were: 1 edit in a part shorter than 6 letters, 2 in a
    longer one. An apostrophe put in or taken out (``it's`` -> ``its``, ``dont`` -> ``don't``) is
    one too."""
    if "'" in a + b:
        return a.replace("'", "") == b.replace("'", "")
    if not (a.isalpha() and b.isalpha()):
        x, y = _name_parts(a), _name_parts(b)
        if len(x) < 2 or len(x) != len(y):
            return False
        differing = [(p, q) for p, q in zip(x, y) if p != q]
        return len(differing) == 1 and _respelled_word(*differing[0], 1 if min(map(len, differing[0])) < 6 else 2)
    return _respelled_word(a, b, 2)


_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def _name_parts(name: str) -> list[str]:
    return _PART.findall(name) if re.fullmatch(r"[A-Za-z0-9_]+", name) else []


def _respelled_word(a: str, b: str, edits: int) -> bool:
    if not (a.isalpha() and b.isalpha() and min(len(a), len(b)) >= 4) or a.lower() == b.lower():
        return False
    x, y = a.lower(), b.lower()
    if x.startswith(y) or y.startswith(x) or x.endswith(y) or y.endswith(x) or abs(len(x) - len(y)) > 2:
        return False
    previous = list(range(len(y) + 1))
    for i, cx in enumerate(x, 1):
        current = [i]
        for j, cy in enumerate(y, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (cx != cy)))
        previous = current
    return previous[-1] <= edits


# Values and words of the languages, never names: ``None`` -> ``False`` is a new default, not a rename.
_NOT_NAMES = frozenset(
    {
        "None",
        "True",
        "False",
        "true",
        "false",
        "null",
        "nil",
        "undefined",
        "nullptr",
        "NULL",
        "self",
        "this",
        "return",
        "and",
        "or",
        "not",
        "is",
        "in",
        # control flow: idna 3.7's ``if`` made ``elif`` (with an ``else: break``) is no name swapped
        "if",
        "elif",
        "else",
        "while",
        "for",
        "break",
        "continue",
        "pass",
    }
)


# A printf-style conversion (``%s``, ``%-5d``): ``"%s" % x`` -> ``"{}".format(x)`` swaps no name ``s``.
_PRINTF = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?[sdifrxXeEgGcaou]\b")


def _code_only(line: str) -> str:
    """``line`` with its printf slots and the words of its messages (a string holding a space) left out:
    filelock's "... flock; user SoftFileLock instead" made "... use SoftFileLock ..." renames nothing."""
    return _MESSAGE.sub('""', _PRINTF.sub(" ", line))


# (a docstring's triple quotes are no message: its words are docs, worded "replace of with off")
_MESSAGE = re.compile(r"""(?<!")"[^"\n]*\s[^"\n]*"(?!")|(?<!')'[^'\n]*\s[^'\n]*'(?!')""")


def _renames(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Names swapped for others in rewritten code lines (a comment's reworded word is no rename)."""
    swaps: Counter[tuple[str, str]] = Counter()
    for old, new in pairs:
        if COMMENT.match(old) or COMMENT.match(new):
            continue
        a, b = _TOKEN.findall(_code_only(old)), _TOKEN.findall(_code_only(new))
        if len(a) != len(b):
            continue
        diffs = {(x, y) for x, y in zip(a, b) if x != y}
        if len(diffs) != 1:
            continue
        swap = next(iter(diffs))
        if not _respelled(*swap) and not _NOT_NAMES.intersection(swap):  # a respelled word is a typo fixed
            swaps[swap] += 1
    return [pair for pair, n in swaps.most_common() if n >= 2 or len(pairs) == 1 and n == 1][:3]


# A licence header's lines: boilerplate, never why a change was made.
_LICENCE = re.compile(
    r"^(?:copyright\b|\(c\)|©|spdx-|licensed\b|you may (?:not )?(?:use|obtain)|unless required by|"
    r"distributed under|without warranties|see the license|limitations under|all rights reserved|"
    r"https?://(?:www\.)?(?:apache\.org|gnu\.org|opensource\.org)/licen[cs]es|"
    r"this (?:program|file|library) is (?:free software|part of|licensed|distributed))",
    re.IGNORECASE,
)

# Code commented out (a call, an assignment, a statement or block), no sentence saying why.
_COMMENTED_CODE = re.compile(r"^(?:[\w.$]+\(.*\)\s*;?|[\w.$\[\]'\"]+\s*(?:[-+*/|&]?=|:=)\s*\S.*|.*\)\s*\{|[{}]+)$")


REWORDED = 0.7  # share of words a removed and an added comment line share past which it was only reworded
COMMENT_LINES = 200  # comment lines read on each side (only three comments are quoted)
_ENDS = (".", ";", ":", "!", "?")
# A sentence's end; not an abbreviation's dot (``e.g.``, ``etc.``).
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)(?<!\bcf)[.!?](?=\s)")


@dataclass(frozen=True)
class Comment:
    """An added comment line; ``after`` and ``before``: whether the comment it belongs to
    goes on in an unchanged line before or after it, mid-sentence."""

    text: str
    after: bool = False
    before: bool = False
    follows: bool = False  # the line before it adds a comment line too: it may go on that one's sentence


_RAISE = re.compile(r"\b(?:raise|throw new|throw)\s+([A-Z]\w+)")
_HANDLE = re.compile(r"\b(?:except|catch\s*\()\s*\(?([A-Z]\w+)")


def _mentions(pattern: re.Pattern, lines: list[str]) -> Counter:
    """How often ``lines`` raise (or catch) each exception. Those the added lines raise more often
    than the removed ones are new; a ``raise RuntimeError(...)`` only rewritten raises none."""
    return Counter(m.group(1) for line in lines if (m := pattern.search(line)))


def added_comments(lines: list[str]) -> list[Comment]:
    """The comments a hunk adds, each knowing whether its sentence starts or ends in the hunk's
    unchanged lines (an edit inside a wrapped comment adds only part of a sentence)."""
    out: list[Comment] = []
    last = -2  # the row of the last comment line added
    for at, line in enumerate(lines):
        if line[:1] != "+" or (text := _comment_text(line[1:])) is None:
            continue
        previous = _context_comment(lines, at - 1)
        following = _context_comment(lines, at + 1)
        out.append(
            Comment(
                text,
                after=previous is not None and not previous.endswith(_ENDS) and not text[:1].isupper(),
                before=following is not None and not text.endswith(_ENDS),
                follows=last == at - 1,
            )
        )
        last = at
    return out


def _context_comment(lines: list[str], at: int) -> str | None:
    return _comment_text(lines[at][1:]) if 0 <= at < len(lines) and lines[at][:1] == " " else None


def _comments(added: list[Comment], removed: Sequence[str] = ()) -> list[str]:
    """What the added comments say, a comment wrapped over several lines read as one; a
    comment only reworded (``as as`` -> ``as``) says nothing about why the code changed."""
    before = [_words(text) for line in removed if (text := _comment_text(line))][:COMMENT_LINES]
    found: list[str] = []
    for text in _comment_paragraphs(added, before):
        text = _first_sentences(text).rstrip(".")
        if len(text) > 12 and text not in found:
            found.append(text)
    return found[:3]


def _comment_paragraphs(comments: list[Comment], before: list[frozenset[str]]) -> list[str]:
    """The comments not close to one in ``before``, a line joining the line above it when that one
    ends mid-sentence and it goes on with it (``_goes_on``: ``... without a`` / ``value but ...``);
    the part of a sentence that starts or ends in unchanged lines is left out."""
    paragraphs: list[list[Comment]] = []
    joining = False
    for comment in comments[:COMMENT_LINES]:
        said = not _reworded(_words(comment.text), before)
        if said and joining and comment.follows and _goes_on(paragraphs[-1][-1].text, comment.text):
            paragraphs[-1].append(comment)
        elif said:
            paragraphs.append([comment])
        joining = said and not comment.text.endswith(_ENDS)
    return [text for lines in paragraphs if (text := _whole_sentences(lines))]


def _goes_on(above: str, text: str) -> bool:
    """Whether comment line ``text`` goes on the sentence ``above`` leaves open: it opens in lower
    case or on a class's name (anyio's "... instead of adding one more" / "CancelledError to the
    exceptions list"), or ``above`` ends on a word no sentence ends on (typing_extensions's "...
    if and when" / "PEP 728 is implemented")."""
    return not text[:1].isupper() or _CLASS_NAME.match(text) is not None or _OPEN_END.search(above) is not None


_CLASS_NAME = re.compile(r"[A-Z][a-z]+[A-Z]\w*\b")
_OPEN_END = re.compile(
    r"\b(?:and|or|but|nor|the|a|an|of|to|when|if|with|for|in|on|at|by|from|than|that|which|as|is|are|be)$", re.I
)


def _whole_sentences(lines: list[Comment]) -> str:
    text = " ".join(c.text for c in lines)
    if lines[0].after:  # starts mid-sentence: from the next sentence on
        ends = [m.end() for m in _SENTENCE_END.finditer(text)]
        text = text[ends[0] :].strip() if ends else ""
    if text and lines[-1].before:  # ends mid-sentence: up to the last sentence ended
        ends = [m.end() for m in _SENTENCE_END.finditer(text + " ")]
        text = text[: ends[-1]] if ends else ""
    return text


# A comment that tells a tool something: a JSDoc or TypeScript tag (commander's "@param {boolean}
# [passThrough] ...", "@ts-ignore because ..."), a linter's or coverage tool's switch.
_DIRECTIVES = ("!", "-*-", "type:", "noqa", "pragma", "@", "eslint-", "istanbul ", "c8 ", "prettier-ignore")


def _comment_text(line: str) -> str | None:
    """The text of a comment saying something: not a directive, a licence or code commented out."""
    m = COMMENT.match(line)
    text = m.group(1) if m else None
    if text is None or text.startswith(_DIRECTIVES) or _LICENCE.match(text) or _COMMENTED_CODE.match(text):
        return None
    return text


def _reworded(words: frozenset[str], before: list[frozenset[str]], share: float = REWORDED) -> bool:
    return any(len(words & old) >= share * len(words | old) for old in before)


def _words(text: str) -> frozenset[str]:
    return frozenset(w.lower() for w in _TOKEN.findall(text))


def _first_sentences(text: str, most: int = 240) -> str:
    """``text``, or where it is longer than ``most`` characters its sentences that fit."""
    if len(text) <= most:
        return text
    ends = [m.end() for m in _SENTENCE_END.finditer(text) if m.end() <= most]
    return text[: ends[-1]] if ends else text
