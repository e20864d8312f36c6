#include "training_config.hpp"

namespace famspec::test {

std::string config_head(const std::string& model_target) {
    std::string text =
        "# A training config: the runtime reads every section; famspec reads plan_overrides.\n"
        "defaults: &defaults\n"
        "  dtype: bfloat16\n"
        "  seed: 1234\n"
        "model:\n";
    if (!model_target.empty()) text += "  _target_: " + model_target + "\n";
    text +=
        "  config_path: /models/toy/config.json\n"
        "  model_name_or_path: /models/toy\n"
        "  trust_remote_code: true\n"
        "model_init_dtype: *defaults\n"
        "training:\n"
        "  <<: *defaults\n"
        "  global_batch_size: 1024\n"
        "  micro_batch_size: 1\n"
        "  max_steps: 50000\n"
        "  gradient_accumulation_steps: [1, 2, 4]\n"
        "accelerator:\n"
        "  kind: npu\n"
        "  devices: 8\n"
        "fsdp_config:\n"
        "  sharding_strategy: FULL_SHARD\n"
        "  reshard_after_forward: true\n"
        "  wrap: {modules: [ToyDecoderLayer], exclude: []}\n"
        "mixed_precision: {param_dtype: bf16, reduce_dtype: fp32}\n"
        "activation_checkpoint:\n"
        "  enabled: true\n"
        "  layers: [0, 1, 2, 3]\n"
        "codegen:\n"
        "  enabled: true\n"
        "  output_dir: generated\n";
    return text;
}

std::string config_tail() {
    return "compile: false\n"
           "modeling_backend: hf\n"
           "checkpoint:\n"
           "  save_dir: /ckpt/toy\n"
           "  save_interval: 1000\n"
           "  keep: 3\n"
           "dataset:\n"
           "  _target_: hyper_parallel.data.build_dataset\n"
           "  paths: [/data/a, /data/b]\n"
           "dataloader: {num_workers: 4, pin_memory: true}\n"
           "optimizer:\n"
           "  _target_: torch.optim.AdamW\n"
           "  lr: 3.0e-4\n"
           "  betas: [0.9, 0.95]\n"
           "lr_scheduler: {name: cosine, warmup_steps: 2000}\n"
           "loss_fn: cross_entropy\n"
           "debug: ~\n"
           "profiling: {enabled: false}\n"
           "dry_run: false\n";
}

std::string realistic_config(const std::string& overrides, std::size_t lines) {
    std::string text =
        config_head("hyper_parallel.models.toy.adapter.validation.build_toy") + overrides + config_tail();
    std::size_t count = 0;
    for (const char c : text) count += c == '\n' ? 1 : 0;
    text += "optimizer_param_groups:\n";
    ++count;
    for (std::size_t group = 0; count + 6 <= lines; ++group) {
        const std::string n = std::to_string(group);
        text += "  - name: layer_" + n + "\n" + "    pattern: model.layers." + n + ".*\n" + "    lr_scale: 0.9" + n +
                "\n" + "    weight_decay: 0.01\n" + "    betas: [0.9, 0.95]\n" + "    no_decay: [bias, norm.weight]\n";
        count += 6;
    }
    while (count < lines) {
        text += "profiler_note_" + std::to_string(count) + ": step " + std::to_string(count) + "\n";
        ++count;
    }
    return text;
}

}  // namespace famspec::test
