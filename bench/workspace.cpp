#include "workspace.hpp"

#include <sched.h>
#include <stdlib.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace famspec::bench {
namespace fs = std::filesystem;

Workspace::Workspace(const fs::path& generated_dir, const std::vector<int>& counts,
                     const std::vector<int>& plan_entries) {
    std::error_code ec;
    for (fs::directory_iterator it(generated_dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".so") generated_.push_back(it->path());
    }
    std::sort(generated_.begin(), generated_.end());
    std::string pattern = (fs::temp_directory_path() / "famspec-bench.XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a temporary directory");
    root_ = pattern;
    for (const int count : counts) {
        if (count <= 0 || static_cast<std::size_t>(count) > generated_.size()) continue;
        const fs::path dir = root_ / ("plugins-" + std::to_string(count));
        fs::create_directory(dir);
        for (int i = 0; i < count; ++i) fs::create_symlink(generated_[i], dir / generated_[i].filename());
        plugin_dirs_[count] = dir;
    }
    for (const int entries : plan_entries) {
        plans_[entries] = root_ / ("plan-" + std::to_string(entries) + ".yaml");
        write_plan(plans_[entries], entries);
    }
}

Workspace::~Workspace() {
    std::error_code ec;
    fs::remove_all(root_, ec);
}

std::vector<std::string> Workspace::plugin_files(int count) const {
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(plugin_dir(count))) files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

void write_plan(const fs::path& file, int entries) {
    std::ofstream out(file);
    const std::string adapter = "hyper_parallel.models.qwen3_moe.adapter.";
    out << "model_type: qwen3_moe\nplan_overrides:\n";
    for (int i = 0; i < entries; ++i) {
        const std::string layer = "model.layers." + std::to_string(i);
        switch (i % 3) {
            case 0:
                out << "  - match: [\"" << layer << ".input_layernorm\", \"" << layer
                    << ".post_attention_layernorm\"]\n"
                    << "    module_type: transformers.models.qwen3_moe.modeling_qwen3_moe.Qwen3MoeRMSNorm\n"
                    << "    replace_module:\n      _target_: " << adapter
                    << "replacements.replace_qwen3_moe_rms_norm\n";
                break;
            case 1:
                out << "  - match: \"" << layer << ".self_attn\"\n    when: cp\n    region_dispatch: false\n"
                    << "    inner_target: self\n    inner_wrapper:\n      _target_: " << adapter
                    << "distributed.context_parallel.qwen3_moe_flash_attention_cp_wrapper\n";
                break;
            default:
                out << "  - match: \"" << layer << ".mlp\"\n    local_compute_fn:\n      _target_: " << adapter
                    << "distributed.expert_parallel.qwen3moe_ep_compute_fn\n      use_grouped_gemm: true\n";
                break;
        }
    }
}

std::string machine_description() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string model = "unknown CPU";
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
            model = line.substr(line.find(':') + 2);
            break;
        }
    }
    return model + ", " + std::to_string(std::thread::hardware_concurrency()) + " CPUs";
}

int pin_to_one_cpu() {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
    for (int cpu = CPU_SETSIZE - 1; cpu >= 0; --cpu) {
        if (!CPU_ISSET(cpu, &allowed)) continue;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        return sched_setaffinity(0, sizeof one, &one) == 0 ? cpu : -1;
    }
    return -1;
}

}  // namespace famspec::bench
