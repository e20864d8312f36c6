#include "help_export.hpp"

#include <ostream>
#include <string>
#include <vector>

#include "famspec/fingerprint.hpp"

namespace famspec::cli {
namespace {

std::vector<const CLI::App*> visible_commands(const CLI::App& app) {
    return app.get_subcommands([](const CLI::App* sub) { return !sub->get_group().empty(); });
}

std::vector<const CLI::Option*> visible_options(const CLI::App& app) {
    return app.get_options([](const CLI::Option* option) { return !option->get_group().empty(); });
}

std::vector<std::string> flag_names(const CLI::Option& option) {
    std::vector<std::string> names;
    for (const auto& s : option.get_snames()) names.push_back("-" + s);
    for (const auto& l : option.get_lnames()) names.push_back("--" + l);
    return names;
}

bool takes_value(const CLI::Option& option) { return option.get_type_size_max() > 0; }

// roff: a leading dot or quote would start a request, and a backslash an escape.
std::string roff(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c == '\\')
            out += "\\e";
        else if (c == '-')
            out += "\\-";
        else
            out += c;
    }
    if (!out.empty() && (out.front() == '.' || out.front() == '\'')) out.insert(0, "\\&");
    return out;
}

void man_options(const CLI::App& app, std::ostream& out) {
    for (const CLI::Option* option : visible_options(app)) {
        std::string names;
        for (const auto& name :
             option->get_positional() ? std::vector<std::string>{option->get_name()} : flag_names(*option)) {
            names += (names.empty() ? "" : ", ") + std::string("\\fB") + roff(name) + "\\fR";
        }
        if (!option->get_positional() && takes_value(*option))
            names += " \\fI" + roff(option->get_type_name()) + "\\fR";
        out << ".TP\n" << names << "\n" << roff(option->get_description()) << "\n";
    }
}

}  // namespace

void write_bash_completion(const CLI::App& app, std::ostream& out) {
    std::string commands;
    for (const CLI::App* sub : visible_commands(app)) commands += (commands.empty() ? "" : " ") + sub->get_name();
    out << "# bash completion for famspec, generated from its command-line definitions.\n"
        << "_famspec() {\n"
        << "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command= i\n"
        << "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
        << "        case ${COMP_WORDS[i]} in --plugin-path) ((i++)) ;; -*) ;; *) command=${COMP_WORDS[i]}; break ;; "
           "esac\n"
        << "    done\n"
        << "    case $prev in\n"
        << "        --plugin-path|--dir) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n"
        << "    esac\n"
        << "    case $command in\n"
        << "        '') COMPREPLY=($(compgen -W '" << commands << " --plugin-path --version --help' -- \"$cur\")) ;;\n";
    for (const CLI::App* sub : visible_commands(app)) {
        std::string words;  // the app's options, which every command takes too, then its own
        for (const CLI::Option* option : visible_options(app)) {
            for (const auto& name : flag_names(*option)) {
                if (name != "--help" && name != "-h" && name != "--version") words += (words.empty() ? "" : " ") + name;
            }
        }
        for (const CLI::Option* option : visible_options(*sub)) {
            for (const auto& name : flag_names(*option)) words += " " + name;
        }
        const bool takes_file = !sub->get_options([](const CLI::Option* o) { return o->get_positional(); }).empty();
        out << "        " << sub->get_name() << ") COMPREPLY=($(compgen -W '" << words << "' -- \"$cur\")"
            << (takes_file ? " $(compgen -f -- \"$cur\")" : "") << ") ;;\n";
    }
    out << "    esac\n"
        << "}\n"
        << "complete -o filenames -F _famspec famspec\n";
}

void write_man_page(const CLI::App& app, std::ostream& out) {
    out << ".\\\" Generated from famspec's command-line definitions; do not edit.\n"
        << ".TH FAMSPEC 1 \"\" \"famspec " << core_version() << "\" \"User Commands\"\n"
        << ".SH NAME\nfamspec \\- " << roff(app.get_description().substr(app.get_description().find(':') + 2))
        << "\n.SH SYNOPSIS\n\\fBfamspec\\fR [\\fB\\-\\-plugin\\-path\\fR \\fIDIR\\fR]... \\fICOMMAND\\fR "
           "[\\fIOPTIONS\\fR]\n"
        << ".SH OPTIONS\n";
    man_options(app, out);
    out << ".SH COMMANDS\n";
    for (const CLI::App* sub : visible_commands(app)) {
        out << ".SS " << roff(sub->get_name()) << "\n" << roff(sub->get_description()) << "\n";
        man_options(*sub, out);
    }
    out << ".SH ENVIRONMENT\n.TP\n\\fBFAMSPEC_PLUGIN_PATH\\fR\n"
        << "Colon-separated absolute plugin directories, used when no \\fB\\-\\-plugin\\-path\\fR is given.\n"
        << ".TP\n\\fBNO_COLOR\\fR\nfamspec never writes colour, so it honours this whatever its value.\n"
        << ".SH EXIT STATUS\n0 ok; 1 a plugin failed, a family is unknown or a target is not covered; "
        << "2 a usage error, bad input, or stdout could not be written.\n"
        << ".SH FILES\n\\fI<directory of famspec>/../lib/famspec/plugins\\fR, the default plugin directory.\n";
}

}  // namespace famspec::cli
