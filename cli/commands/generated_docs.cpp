// The bash completion and the man page, written by the build from the command definitions
// (help_export.hpp): `famspec __bash-completion FILE`, `famspec __man FILE`. Hidden.
#include <fstream>
#include <memory>

#include "command.hpp"
#include "help_export.hpp"

namespace famspec::cli {

void setup_generated_docs(CLI::App& app, Context& context) {
    for (const bool man : {false, true}) {
        auto file = std::make_shared<std::string>();
        CLI::App* command = app.add_subcommand(man ? "__man" : "__bash-completion", "");
        command->group("");
        command->add_option("OUTPUT", *file)->required()->check(kNonEmpty);
        on_run(command, context, [&app, file, man] {
            std::ofstream out(*file, std::ios::binary | std::ios::trunc);
            (man ? write_man_page : write_bash_completion)(app, out);
            out.close();
            if (!out) throw UsageError("cannot write " + *file);
            return kExitOk;
        });
    }
}

}  // namespace famspec::cli
