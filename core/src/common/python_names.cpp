#include "common/python_names.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "common/dotted_path.hpp"

namespace famspec::detail {
namespace {

bool identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

bool is_identifier(std::string_view text) {
    return !text.empty() && identifier_start(text.front()) && std::all_of(text.begin(), text.end(), identifier_char);
}

bool is_dotted(std::string_view text) {
    const std::vector<std::string> parts = split_dotted(text);
    return std::all_of(parts.begin(), parts.end(), [](const std::string& part) { return is_identifier(part); });
}

// Words (dotted names included) and the punctuation , ( ) *; anything else is an error token.
Expected<std::vector<std::string>, std::string> tokenize(std::string_view line) {
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
            return unexpected("unexpected character '" + std::string(1, c) + "'");
        }
    }
    return tokens;
}

// name [as alias] (, name [as alias])*; the index after the list.
template <class Bind>
Expected<std::size_t, std::string> parse_list(const std::vector<std::string>& tokens, std::size_t i, bool dotted,
                                              Bind bind) {
    while (true) {
        if (i >= tokens.size()) return unexpected(std::string("expected a name"));
        const std::string& name = tokens[i];
        if (name == "*") return unexpected(std::string("a star import binds names that cannot be known"));
        if (dotted ? !is_dotted(name) : !is_identifier(name)) {
            return unexpected("'" + name + "' is not a " + (dotted ? "module name" : "name"));
        }
        ++i;
        std::string alias;
        if (i < tokens.size() && tokens[i] == "as") {
            if (i + 1 >= tokens.size() || !is_identifier(tokens[i + 1])) {
                return unexpected(std::string("expected a name after 'as'"));
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
    auto tokenized = tokenize(line);
    if (!tokenized) return unexpected(std::move(tokenized.error()));
    const std::vector<std::string>& tokens = *tokenized;
    std::vector<ImportBinding> bindings;
    auto fail = [](std::string message) -> ImportParse { return unexpected(std::move(message)); };
    if (tokens.empty()) return fail("the line is empty");

    if (tokens[0] == "import") {
        auto bind = [&](const std::string& module, const std::string& alias) {
            // `import a.b` binds the top-level package a; `import a.b as c` binds c to a.b.
            if (alias.empty())
                bindings.push_back({split_dotted(module).front(), split_dotted(module).front()});
            else
                bindings.push_back({alias, module});
        };
        const auto end = parse_list(tokens, 1, true, bind);
        if (!end) return fail(end.error());
        if (*end != tokens.size()) return fail("unexpected '" + tokens[*end] + "'");
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
        const auto listed = parse_list(tokens, parenthesised ? 4 : 3, false, bind);
        if (!listed) return fail(listed.error());
        std::size_t end = *listed;
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
