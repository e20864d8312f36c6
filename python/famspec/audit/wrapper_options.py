"""A CP wrapper's declared static options against its ``def``: every parameter after the five
positional ones the runtime passes, and any with a default among them (as sync reads them), each with
its default and, for a ``Literal[...]`` type, its allowed values."""

from __future__ import annotations

import ast

from ..source import signatures as sig
from ..source.literals import literal_choices
from ..source.runtime import RUNTIME_PARAMETERS, option_arguments
from .findings import drift



def _declared_values(parameter: dict) -> tuple | None:
    if "allowed" not in parameter:
        return None
    return tuple(ast.literal_eval(value) for value in parameter["allowed"])


def check_options(function: ast.FunctionDef | ast.AsyncFunctionDef, wrapper: dict, module, tree, ctx: dict) -> list:
    """Drift for each declared option the ``def`` lacks, each keyword-only parameter not declared,
    each default that differs and each ``Literal[...]`` whose values differ from the declared ones."""
    dotted = wrapper["target"]
    declared_raw = {p["name"]: p for p in wrapper.get("options", [])}
    declared = {p.name: p for p in sig.declared_parameters(wrapper.get("options", []))}
    source = option_arguments(function)

    def say(kind, line, declared_text, found_text, remedy):
        return drift("cp_wrapper", dotted, module.rel, line, declared_text, found_text, remedy, kind=kind, **ctx)

    findings = []
    for name, param in declared.items():
        if name not in source:
            findings.append(say("cp_wrapper_option_removed", function.lineno, f"option {param.text()}", "(absent)",
                                "drop the option from the cp_wrapper declaration"))
            continue
        arg, default, kind = source[name]
        found = sig.Param(name, kind, sig.default_from_node(default), arg.lineno)
        if found.default != param.default:
            findings.append(say("cp_wrapper_option_default", arg.lineno, f"option {param.text()}",
                                f"option {found.text()}", "change the option's default in the cp_wrapper declaration"))
        values = literal_choices(arg.annotation, module, tree) or None
        expected = _declared_values(declared_raw[name])
        if values is not None and values != expected:
            shown = "(any)" if expected is None else f"Literal{list(expected)}"
            findings.append(say("cp_wrapper_option_values", arg.lineno, f"option {name}: {shown}",
                                f"option {name}: Literal{list(values)}",
                                "declare the option's allowed values with one_of{...} as the source lists them"))
    for name, (arg, default, kind) in source.items():
        if name not in declared and name not in RUNTIME_PARAMETERS:
            found = sig.Param(name, kind, sig.default_from_node(default), arg.lineno)
            findings.append(say("cp_wrapper_option_added", arg.lineno, "(absent)", f"option {found.text()}",
                                "declare the option in the cp_wrapper declaration"))
    return findings
