"""The languages parsed for definitions and uses, with their tree-sitter grammars and queries.

Each grammar is a PyPI wheel of the tree-sitter project (``tree-sitter-python``,
``-go``, ``-rust``, ``-javascript``, ``-typescript``), imported the first time a
file of its language is parsed. A query names definitions: ``@name`` is the
defined name, ``@def`` the whole definition (its rows are the definition's scope).
``@top`` marks a statement that counts only at the top of the file or of a class
body (a module's constant, a class attribute; not a function's local): its parent
must be the tree's root or the body of one of the grammar's ``members_of``. Those
are not written into the pattern, as ``(module (...) @def)``: a query for a few
rows would then match every statement of the file (or class), which holds them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import import_module
from typing import Any

_PYTHON = """
(function_definition name: (identifier) @name) @def
(class_definition name: (identifier) @name) @def
(expression_statement (assignment left: (identifier) @name)) @def @top
(assignment left: (attribute object: (identifier) @obj attribute: (identifier) @name) (#eq? @obj "self")) @def
"""
_GO = """
(function_declaration name: (identifier) @name) @def
(method_declaration name: (field_identifier) @name) @def
(type_spec name: (type_identifier) @name) @def
(const_spec name: (identifier) @name) @def
(var_declaration (var_spec name: (identifier) @name) @def) @top
(field_declaration name: (field_identifier) @name) @def
(method_elem name: (field_identifier) @name) @def
"""
_RUST = """
(function_item name: (identifier) @name) @def
(function_signature_item name: (identifier) @name) @def
(struct_item name: (type_identifier) @name) @def
(enum_item name: (type_identifier) @name) @def
(enum_variant name: (identifier) @name) @def
(trait_item name: (type_identifier) @name) @def
(type_item name: (type_identifier) @name) @def
(const_item name: (identifier) @name) @def
(static_item name: (identifier) @name) @def
(mod_item name: (identifier) @name) @def
(macro_definition name: (identifier) @name) @def
(field_declaration name: (field_identifier) @name) @def
(impl_item type: (type_identifier) @name) @def
"""
# JavaScript and TypeScript share these; a class's name is an identifier in one
# and a type_identifier in the other.
_ECMASCRIPT = """
(function_declaration name: (identifier) @name) @def
(generator_function_declaration name: (identifier) @name) @def
(method_definition name: (property_identifier) @name) @def
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @def
(lexical_declaration (variable_declarator name: (identifier) @name) @def) @top
(variable_declaration (variable_declarator name: (identifier) @name) @def) @top
(export_statement (lexical_declaration (variable_declarator name: (identifier) @name) @def)) @top
(assignment_expression left: (member_expression property: (property_identifier) @name)
  right: [(function_expression) (arrow_function)]) @def
(pair key: (property_identifier) @name value: [(function_expression) (arrow_function)]) @def
"""
_JAVASCRIPT = _ECMASCRIPT + "(class_declaration name: (identifier) @name) @def\n"
_TYPESCRIPT = (
    _ECMASCRIPT
    + """
(class_declaration name: (type_identifier) @name) @def
(abstract_class_declaration name: (type_identifier) @name) @def
(interface_declaration name: (type_identifier) @name) @def
(type_alias_declaration name: (type_identifier) @name) @def
(enum_declaration name: (identifier) @name) @def
(public_field_definition name: (property_identifier) @name) @def
(method_signature name: (property_identifier) @name) @def
(property_signature name: (property_identifier) @name) @def
(function_signature name: (identifier) @name) @def
"""
)


@dataclass(frozen=True)
class Grammar:
    name: str
    module: str  # the grammar's wheel
    entry: str  # its function returning the language
    definitions: str  # the query: @name in @def
    names: tuple[str, ...]  # leaf node types that are names
    scopes: frozenset[str]  # definition node types that enclose code (functions, classes)
    functions: frozenset[str]  # node types of functions, named or not (a test's callback too)
    members_of: frozenset[str] = frozenset()  # definitions whose body's @top statements define members


_ECMA_NAMES = (
    "identifier",
    "property_identifier",
    "shorthand_property_identifier",
    "shorthand_property_identifier_pattern",
    "private_property_identifier",
)
_ECMA_SCOPES = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
        "method_definition",
        "variable_declarator",
        "assignment_expression",
        "pair",
    }
)
_ECMA_FUNCTIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "arrow_function",
        "method_definition",
        "generator_function",
    }
)

GRAMMARS = {
    "python": Grammar(
        "python",
        "tree_sitter_python",
        "language",
        _PYTHON,
        ("identifier",),
        frozenset({"function_definition", "class_definition"}),
        frozenset({"function_definition", "lambda"}),
        frozenset({"class_definition"}),
    ),
    "go": Grammar(
        "go",
        "tree_sitter_go",
        "language",
        _GO,
        ("identifier", "field_identifier", "type_identifier"),
        frozenset({"function_declaration", "method_declaration", "type_spec"}),
        frozenset({"function_declaration", "method_declaration", "func_literal"}),
    ),
    "rust": Grammar(
        "rust",
        "tree_sitter_rust",
        "language",
        _RUST,
        ("identifier", "field_identifier", "type_identifier", "shorthand_field_identifier"),
        frozenset(
            {"function_item", "struct_item", "enum_item", "trait_item", "impl_item", "mod_item", "macro_definition"}
        ),
        frozenset({"function_item", "closure_expression"}),
    ),
    "javascript": Grammar(
        "javascript", "tree_sitter_javascript", "language", _JAVASCRIPT, _ECMA_NAMES, _ECMA_SCOPES, _ECMA_FUNCTIONS
    ),
    "typescript": Grammar(
        "typescript",
        "tree_sitter_typescript",
        "language_typescript",
        _TYPESCRIPT,
        (*_ECMA_NAMES, "type_identifier"),
        _ECMA_SCOPES | {"abstract_class_declaration", "interface_declaration"},
        _ECMA_FUNCTIONS,
    ),
    "tsx": Grammar(
        "tsx",
        "tree_sitter_typescript",
        "language_tsx",
        _TYPESCRIPT,
        (*_ECMA_NAMES, "type_identifier"),
        _ECMA_SCOPES | {"abstract_class_declaration", "interface_declaration"},
        _ECMA_FUNCTIONS,
    ),
}

_EXTENSIONS = {
    ".py": "python",
    ".pyi": "python",
    ".go": "go",
    ".rs": "rust",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
}


def grammar_for(path: str) -> Grammar | None:
    """The grammar of ``path``'s language, or None (no grammar, or its wheel is not installed)."""
    dot = path.rfind(".")
    name = _EXTENSIONS.get(path[dot:].lower()) if dot > path.rfind("/") else None
    if name is None:
        return None
    return GRAMMARS[name] if loaded(name) is not None else None


@lru_cache(maxsize=None)
def loaded(name: str) -> tuple[Any, Any, Any] | None:
    """``(parser, definitions query, names query)`` for a grammar, made once; None when
    tree-sitter or the grammar's wheel cannot be imported."""
    grammar = GRAMMARS[name]
    try:
        import tree_sitter

        module = import_module(grammar.module)
    except ImportError:
        return None
    language = tree_sitter.Language(getattr(module, grammar.entry)())
    names = tree_sitter.Query(language, "[" + " ".join(f"({t})" for t in grammar.names) + "] @name")
    return tree_sitter.Parser(language), tree_sitter.Query(language, grammar.definitions), names
