#include "python_check.hpp"

#include <sstream>

#include "process.hpp"

namespace famspec::test {
namespace {

// symtable sees every name a function or class body reads from module scope (is_global), so
// nothing escapes the check the way a regex over the text would.
constexpr const char* kScript = R"(import builtins, symtable, sys
text = sys.stdin.read()
try:
    top = symtable.symtable(text, '<artifact>', 'exec')
except SyntaxError as error:
    print('syntax:', error)
    sys.exit(2)
bound = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported() or s.is_namespace()}
unbound = set()
def walk(table):
    for symbol in table.get_symbols():
        name = symbol.get_name()
        if symbol.is_referenced() and (table is top or symbol.is_global()):
            if name not in bound and not hasattr(builtins, name):
                unbound.add(name)
    for child in table.get_children():
        walk(child)
walk(top)
for name in sorted(unbound):
    print(name)
)";

}  // namespace

PythonCheck check_python(const std::string& text) {
    ProcessOptions options;
    options.input = text;
    const ProcessResult result = run_process({"python3", "-c", kScript}, options);
    PythonCheck check;
    if (result.exit_code != 0) {
        check.error = result.out + result.err;
        return check;
    }
    check.parsed = true;
    std::istringstream lines(result.out);
    for (std::string line; std::getline(lines, line);) {
        if (!line.empty()) check.unbound.push_back(line);
    }
    return check;
}

std::string artifact(const std::vector<std::string>& imports, const std::string& source) {
    std::string text;
    for (const std::string& line : imports) text += line + "\n";
    return text + "\n\n" + source;
}

}  // namespace famspec::test
