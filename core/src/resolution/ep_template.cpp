// The inline expert-parallel forward that replaces a routed-MoE block's forward.
#include "famspec/names.hpp"
#include "famspec/python_text.hpp"
#include "resolution/inline_channels.hpp"

namespace famspec {

std::string moe_ep_forward_body(MoeRouter router_kind, SharedExperts shared) {
    using namespace channels;
    const std::string input(kEpInput);
    std::string body;
    body += "\"\"\"Expert-parallel routed MoE forward: dispatch, local experts, combine.\"\"\"\n";
    body += "if not self." + std::string(kEpEnable) + ":\n";
    body += "    return self." + std::string(kOriginalForward) + "(" + input + ")\n";
    body += "\n";
    body += "return " + std::string(kEpEntry) + "(\n";
    body += "    self,\n";
    body += "    " + input + ",\n";
    body += "    router_kind=" + to_python(std::string(name_of(router_kind))) + ",\n";
    body += "    shared=" + to_python(std::string(name_of(shared))) + ",\n";
    body += "    ep_group=self." + std::string(kEpGroup) + ",\n";
    body += ")\n";
    return body;
}

}  // namespace famspec
