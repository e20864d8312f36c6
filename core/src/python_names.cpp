#include "python_names.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace famspec::detail {
namespace {

bool identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

bool is_identifier(std::string_view text) {
    return !text.empty() && identifier_start(text.front()) && std::all_of(text.begin(), text.end(), identifier_char);
}

bool is_dotted(std::string_view text) {
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = text.find('.', start);
        if (!is_identifier(text.substr(start, dot - start))) return false;
        if (dot == std::string_view::npos) return true;
        start = dot + 1;
    }
}

// Words (dotted names included) and the punctuation , ( ) *; anything else is an error token.
std::vector<std::string> tokenize(std::string_view line, std::string& error) {
    std::vector<std::string> tokens;
    std::size_t i = 0;
    while (i < line.size()) {
        const char c = line[i];
        if (c == '#') break;
        if (c == ' ' || c == '\t') {
            ++i;
        } else if (c == ',' || c == '(' || c == ')' || c == '*') {
            tokens.emplace_back(1, c);
            ++i;
        } else if (identifier_char(c) || c == '.') {
            std::size_t end = i;
            while (end < line.size() && (identifier_char(line[end]) || line[end] == '.')) ++end;
            tokens.emplace_back(line.substr(i, end - i));
            i = end;
        } else {
            error = "unexpected character '" + std::string(1, c) + "'";
            return {};
        }
    }
    return tokens;
}

// name [as alias] (, name [as alias])*; returns the index after the list, or 0 on error.
template <class Bind>
std::size_t parse_list(const std::vector<std::string>& tokens, std::size_t i, bool dotted, Bind bind,
                       std::string& error) {
    while (true) {
        if (i >= tokens.size()) {
            error = "expected a name";
            return 0;
        }
        const std::string& name = tokens[i];
        if (name == "*") {
            error = "a star import binds names that cannot be known";
            return 0;
        }
        if (dotted ? !is_dotted(name) : !is_identifier(name)) {
            error = "'" + name + "' is not a " + (dotted ? "module name" : "name");
            return 0;
        }
        ++i;
        std::string alias;
        if (i < tokens.size() && tokens[i] == "as") {
            if (i + 1 >= tokens.size() || !is_identifier(tokens[i + 1])) {
                error = "expected a name after 'as'";
                return 0;
            }
            alias = tokens[i + 1];
            i += 2;
        }
        bind(name, alias);
        if (i < tokens.size() && tokens[i] == ",") {
            ++i;
            if (i < tokens.size() && tokens[i] == ")") return i;  // a trailing comma inside parentheses
            continue;
        }
        return i;
    }
}

}  // namespace

ImportParse parse_import_line(std::string_view line) {
    std::string error;
    const std::vector<std::string> tokens = tokenize(line, error);
    if (!error.empty()) return unexpected(std::move(error));
    std::vector<ImportBinding> bindings;
    auto fail = [](std::string message) -> ImportParse { return unexpected(std::move(message)); };
    if (tokens.empty()) return fail("the line is empty");

    if (tokens[0] == "import") {
        auto bind = [&](const std::string& module, const std::string& alias) {
            // `import a.b` binds the top-level package a; `import a.b as c` binds c to a.b.
            if (alias.empty())
                bindings.push_back({module.substr(0, module.find('.')), module.substr(0, module.find('.'))});
            else
                bindings.push_back({alias, module});
        };
        const std::size_t end = parse_list(tokens, 1, true, bind, error);
        if (end == 0) return fail(error);
        if (end != tokens.size()) return fail("unexpected '" + tokens[end] + "'");
        return bindings;
    }
    if (tokens[0] == "from") {
        if (tokens.size() < 2 || tokens[1].starts_with('.')) {
            return fail("a relative import has no meaning in a generated file");
        }
        if (!is_dotted(tokens[1])) return fail("'" + tokens[1] + "' is not a module name");
        if (tokens.size() < 3 || tokens[2] != "import") return fail("expected 'import' after the module");
        const std::string& module = tokens[1];
        auto bind = [&](const std::string& name, const std::string& alias) {
            bindings.push_back({alias.empty() ? name : alias, module + ":" + name});
        };
        const bool parenthesised = tokens.size() > 3 && tokens[3] == "(";
        std::size_t end = parse_list(tokens, parenthesised ? 4 : 3, false, bind, error);
        if (end == 0) return fail(error);
        if (parenthesised) {
            if (end >= tokens.size() || tokens[end] != ")") return fail("expected ')'");
            ++end;
        }
        if (end != tokens.size()) return fail("unexpected '" + tokens[end] + "'");
        return bindings;
    }
    return fail("expected 'import' or 'from'");
}

bool is_python_builtin(std::string_view name) {
    // dir(builtins) of CPython 3.11 without the dunders, sorted for the binary search.
    static constexpr auto kBuiltins = std::to_array<std::string_view>({
        "ArithmeticError",
        "AssertionError",
        "AttributeError",
        "BaseException",
        "BaseExceptionGroup",
        "BlockingIOError",
        "BrokenPipeError",
        "BufferError",
        "BytesWarning",
        "ChildProcessError",
        "ConnectionAbortedError",
        "ConnectionError",
        "ConnectionRefusedError",
        "ConnectionResetError",
        "DeprecationWarning",
        "EOFError",
        "Ellipsis",
        "EncodingWarning",
        "EnvironmentError",
        "Exception",
        "ExceptionGroup",
        "False",
        "FileExistsError",
        "FileNotFoundError",
        "FloatingPointError",
        "FutureWarning",
        "GeneratorExit",
        "IOError",
        "ImportError",
        "ImportWarning",
        "IndentationError",
        "IndexError",
        "InterruptedError",
        "IsADirectoryError",
        "KeyError",
        "KeyboardInterrupt",
        "LookupError",
        "MemoryError",
        "ModuleNotFoundError",
        "NameError",
        "None",
        "NotADirectoryError",
        "NotImplemented",
        "NotImplementedError",
        "OSError",
        "OverflowError",
        "PendingDeprecationWarning",
        "PermissionError",
        "ProcessLookupError",
        "RecursionError",
        "ReferenceError",
        "ResourceWarning",
        "RuntimeError",
        "RuntimeWarning",
        "StopAsyncIteration",
        "StopIteration",
        "SyntaxError",
        "SyntaxWarning",
        "SystemError",
        "SystemExit",
        "TabError",
        "TimeoutError",
        "True",
        "TypeError",
        "UnboundLocalError",
        "UnicodeDecodeError",
        "UnicodeEncodeError",
        "UnicodeError",
        "UnicodeTranslateError",
        "UnicodeWarning",
        "UserWarning",
        "ValueError",
        "Warning",
        "ZeroDivisionError",
        "abs",
        "aiter",
        "all",
        "anext",
        "any",
        "ascii",
        "bin",
        "bool",
        "breakpoint",
        "bytearray",
        "bytes",
        "callable",
        "chr",
        "classmethod",
        "compile",
        "complex",
        "copyright",
        "credits",
        "delattr",
        "dict",
        "dir",
        "divmod",
        "enumerate",
        "eval",
        "exec",
        "exit",
        "filter",
        "float",
        "format",
        "frozenset",
        "getattr",
        "globals",
        "hasattr",
        "hash",
        "help",
        "hex",
        "id",
        "input",
        "int",
        "isinstance",
        "issubclass",
        "iter",
        "len",
        "license",
        "list",
        "locals",
        "map",
        "max",
        "memoryview",
        "min",
        "next",
        "object",
        "oct",
        "open",
        "ord",
        "pow",
        "print",
        "property",
        "quit",
        "range",
        "repr",
        "reversed",
        "round",
        "set",
        "setattr",
        "slice",
        "sorted",
        "staticmethod",
        "str",
        "sum",
        "super",
        "tuple",
        "type",
        "vars",
        "zip",
    });
    // Module dunders (__name__, __file__, ...) are bound in every module.
    if (name.size() > 4 && name.starts_with("__") && name.ends_with("__")) return true;
    return std::binary_search(kBuiltins.begin(), kBuiltins.end(), name);
}

}  // namespace famspec::detail
