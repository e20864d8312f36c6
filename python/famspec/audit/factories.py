"""Replacement factories: present in each provider, decorated, and building what the plugin declares."""

from __future__ import annotations

import ast
import difflib

from ..source import signatures as sig
from ..source.construction import Built, parameter_names, returns_of
from ..source.runtime import RUNTIME_PARAMETERS, is_helper, is_replacement_decorator
from ..source.source_tree import ParsedModule, SourceTree, UnreadableSource
from .findings import drift, ok, unreadable

# Every @module_replacement factory takes these; their defaults are the runtime's business.


def provider_modules(family: dict) -> list[str]:
    """The declared provider modules, or else the modules the factory targets live in."""
    declared = family.get("provider_modules")
    if declared:
        return list(declared)
    return sorted({f["target"].rsplit(".", 1)[0] for f in family.get("factories", [])})


def check_providers(tree: SourceTree, family: dict) -> list:
    findings = []
    ctx = {"family": family["model_type"], "plugin": family.get("plugin", ""), "where": family.get("where", "")}
    for provider in provider_modules(family):
        if tree.exists(provider):
            findings.append(ok("provider_module", provider, tree.display(provider), None, f"module {provider}", **ctx))
        else:
            findings.append(
                drift(
                    "provider_module",
                    provider,
                    tree.display(provider),
                    None,
                    f"module {provider}",
                    "neither a file nor a package",
                    "declare the provider layout this runtime version uses",
                    kind="provider_missing",
                    **ctx,
                )
            )
    return findings


def check_factory(tree: SourceTree, family: dict, factory: dict) -> list:
    home, name = factory["target"].rsplit(".", 1)
    providers = provider_modules(family)
    ctx = {"family": family["model_type"], "plugin": factory.get("plugin", ""), "where": factory.get("where", "")}
    declared = {f["target"].rsplit(".", 1)[1] for f in family.get("factories", [])}
    findings = []
    for provider in providers if home in providers else [home]:
        if tree.exists(provider):  # a missing provider is reported once, by check_providers
            findings += _check_in(tree, provider, name, factory, ctx, declared)
    return findings


def _check_in(tree: SourceTree, provider: str, name: str, factory: dict, ctx: dict, declared_names: set) -> list:
    subject = f"{provider}.{name}"
    declared = f"@module_replacement def {name}"
    try:
        binding = tree.resolve(provider, name)
    except UnreadableSource as error:
        return [unreadable("factory", subject, error.rel, error.line, declared, error.reason, **ctx)]
    if binding.kind == "missing":
        return [_missing(tree, provider, name, declared_names, subject, ctx)]
    node, module = binding.node, binding.module
    if binding.kind in ("computed", "external") or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        reason = binding.reason or (
            f"{name} is defined outside the source root ({binding.external})"
            if binding.kind == "external"
            else f"{name} is bound by `{ast.unparse(node).splitlines()[0]}`, not a def"
        )
        return [unreadable("factory", subject, module.rel, node.lineno, declared, reason, **ctx)]
    findings = []
    if not any(is_replacement_decorator(d, module) for d in node.decorator_list):
        findings.append(
            drift(
                "factory",
                subject,
                module.rel,
                node.lineno,
                declared,
                f"def {name} without the @module_replacement decorator",
                "the runtime refuses an unmarked factory: remove the declaration or restore the decorator",
                kind="factory_undecorated",
                **ctx,
            )
        )
    findings += _check_parameters(module, node, factory, subject, ctx)
    findings += _check_returns(tree, module, node, factory, subject, ctx)
    if not findings:
        findings.append(ok("factory", subject, module.rel, node.lineno, _declared_text(factory), **ctx))
    return findings


def _missing(tree: SourceTree, provider: str, name: str, declared_names: set, subject: str, ctx: dict):
    """A factory the provider lacks; renamed when an undeclared factory there has a close name."""
    module = tree.module(provider)
    declared = f"@module_replacement def {name}"
    undeclared = {
        n: d
        for n, d in module.definitions.items()
        if n not in declared_names
        and isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))
        and any(is_replacement_decorator(x, module) for x in d.decorator_list)
    }
    close = difflib.get_close_matches(name, sorted(undeclared), n=1, cutoff=0.75)
    if close:
        new = undeclared[close[0]]
        return drift(
            "factory",
            subject,
            module.rel,
            new.lineno,
            declared,
            f"no {name}; the closest factory is {close[0]}",
            f"if it was renamed, declare the target {provider}.{close[0]}",
            kind="factory_renamed",
            **ctx,
        )
    return drift(
        "factory",
        subject,
        module.rel,
        None,
        declared,
        f"{module.rel} defines no {name}",
        "remove the factory declaration, or declare where the factory moved",
        kind="factory_missing",
        **ctx,
    )


def _check_parameters(module, function, factory, subject, ctx) -> list:
    """Declared options are factory parameters with the same default; undeclared ones are drift."""
    declared = {p.name: p for p in sig.declared_parameters(factory.get("parameters", []))}
    source = {p.name: p for p in sig.source_parameters(function, skip_first=False)}

    def say(kind, line, declared_text, found_text, remedy):
        return drift("factory", subject, module.rel, line, declared_text, found_text, remedy, kind=kind, **ctx)

    findings = []
    for name, param in declared.items():
        found = source.get(name)
        if found is None:
            findings.append(
                say(
                    "factory_parameter_removed",
                    function.lineno,
                    f"parameter {param.text()}",
                    "(absent)",
                    "drop the option from the factory declaration",
                )
            )
        elif name not in RUNTIME_PARAMETERS and found.default != param.default:
            findings.append(
                say(
                    "factory_parameter_default",
                    found.line,
                    f"option {param.text()}",
                    f"option {found.text()}",
                    "change the option's default in the factory declaration",
                )
            )
    for name, found in source.items():
        if name not in declared and found.kind not in (sig.VAR_POSITIONAL, sig.VAR_KEYWORD):
            remedy = f'declare the option with .option("{name}", ...)'
            findings.append(say("factory_parameter_added", found.line, "(absent)", f"parameter {found.text()}", remedy))
    return findings


def _declared_text(factory: dict) -> str:
    construction = factory.get("construction")
    if construction is None:
        return "runtime-only: " + factory.get("runtime_only_reason", "")
    args = []
    if construction["module_passed"] == "keyword":
        args.append("module=module")
    elif construction["module_passed"] == "positional":
        args.append("module")
    for a in construction.get("arguments", []):
        args.append(f"{a['name']}={a['value']}")
    return f"{construction['component']}({', '.join(args)}) from {construction['import_module']}"


def _check_returns(tree, module, function, factory, subject, ctx) -> list:
    construction = factory.get("construction")
    built = returns_of(function, module)
    if not built:
        if construction is None:
            return []
        return [
            unreadable(
                "construction",
                subject,
                module.rel,
                function.lineno,
                _declared_text(factory),
                f"{function.name} has no return the audit can read",
                **ctx,
            )
        ]
    findings = []
    for b in built:
        if b.kind == "call" and is_helper(tree, b):
            if construction is not None:
                reason = f"returns the result of the function {b.component}(...), not a component"
                findings.append(unreadable("construction", subject, module.rel, b.node.lineno, _declared_text(factory),
                                           reason, **ctx))
            continue
        findings += _check_one(module, function, factory, construction, b, subject, ctx)
    return findings


def _check_one(module, function, factory, construction, b: Built, subject, ctx) -> list:
    declared = _declared_text(factory)
    line = b.node.lineno

    def say(kind, found, remedy):
        return drift("construction", subject, module.rel, line, declared, found, remedy, kind=kind, **ctx)

    if b.kind == "unreadable":
        return [unreadable("construction", subject, module.rel, line, declared, b.reason, **ctx)]
    if b.kind == "conversion":
        if construction is None:
            return []
        return [say("construction_in_place", b.reason, "declare the factory .runtime_only(...): nothing can be sunk")]
    if construction is None:
        return [
            say(
                "construction_sinkable",
                f"builds {b.component}(...) from {b.module}",
                "declare the construction (.wraps/.replaces) instead of runtime_only",
            )
        ]
    if b.component != construction["component"]:
        return [say("construction_component", f"builds {b.component} from {b.module}", f"declare {b.component}")]
    findings = []
    if b.module != construction["import_module"]:
        findings.append(
            say(
                "construction_import",
                f"imports {b.component} from {b.module}",
                f"declare the import module {b.module}",
            )
        )
    findings += _check_module_passing(b.node, construction, parameter_names(function), say)
    findings += _check_arguments(b.node, construction, module, say)
    return findings


def _check_module_passing(call: ast.Call, construction: dict, params: set, say) -> list:
    keyword = next((k for k in call.keywords if k.arg == "module"), None)
    first = call.args[0] if call.args else None
    if keyword is not None:
        passed = "keyword"
    elif isinstance(first, ast.Name) and first.id == "module" and "module" in params:
        passed = "positional"
    else:
        passed = "none"
    expected = construction["module_passed"]
    findings = []
    if passed != expected:
        remedy = {
            "keyword": "declare .wraps(...): the module is passed as module=",
            "positional": "declare .wraps_positionally(...): the module is passed positionally",
            "none": "declare .replaces(...): the source module is not handed over",
        }[passed]
        how = {"keyword": "as module=", "positional": "positionally", "none": "not at all"}[passed]
        findings.append(say(f"module_{passed}", f"passes the module {how}", remedy))
    extra = call.args[1:] if passed == "positional" else call.args
    if extra:
        findings.append(
            say(
                "construction_positional",
                f"passes {len(extra)} positional argument(s) the declaration does not state",
                "declare them as keyword arguments, or check the call",
            )
        )
    return findings


def _same_expression(declared: str, node: ast.expr) -> bool:
    try:
        tree = ast.parse(declared, mode="eval").body
    except SyntaxError:
        return False
    return sig.default_from_node(tree) == sig.default_from_node(node)


def _check_arguments(call: ast.Call, construction: dict, module: ParsedModule, say) -> list:
    if any(k.arg is None for k in call.keywords):
        return [say("construction_splat", "passes **keywords the audit cannot read", "write the keywords out")]
    source = [k for k in call.keywords if k.arg != "module"]
    by_name = {k.arg: k for k in source}
    declared = construction.get("arguments", [])
    findings = []
    for argument in declared:
        name, binding, value = argument["name"], argument["binding"], argument["value"]
        keyword = by_name.get(name)
        if keyword is None:
            findings.append(say("argument_missing", f"does not pass {name}=", f"drop the {name} argument"))
            continue
        text = ast.unparse(keyword.value)
        if binding == "literal":
            matches = _same_expression(value, keyword.value)
        else:
            matches = isinstance(keyword.value, ast.Name) and keyword.value.id == value
        if not matches:
            findings.append(say("argument_value", f"passes {name}={text}", f"declare {name}={text}"))
        elif binding == "interface" and value not in module.definitions and value not in module.imports:
            findings.append(
                say(
                    "interface_missing",
                    f"hands over {value}, which {module.rel} does not define or import",
                    "check the interface the family hands over",
                )
            )
    known = {a["name"] for a in declared}
    for keyword in source:
        if keyword.arg not in known:
            text = ast.unparse(keyword.value)
            findings.append(say("argument_added", f"passes {keyword.arg}={text}", f"declare the argument {keyword.arg}"))
    order = [k.arg for k in source if k.arg in known]
    if not findings and order != [a["name"] for a in declared]:
        findings.append(say("argument_order", "passes " + ", ".join(order), "declare the arguments in call order"))
    return findings
