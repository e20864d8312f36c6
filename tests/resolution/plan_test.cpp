#include "famspec/plan.hpp"

#include <doctest/doctest.h>

#include "famspec/plan_keys.hpp"

using famspec::parse_plan_text;
using famspec::plan_refusal_reason;
using famspec::PlanLimits;
using famspec::refuses_plan;
using famspec::unread_entry_key;
using famspec::unread_top_level_key;

namespace {

famspec::PlanError error_of(const std::string& text, const PlanLimits& limits = {}) {
    const auto parsed = parse_plan_text(text, "plan.yaml", limits);
    REQUIRE_FALSE(parsed.has_value());
    REQUIRE(!parsed.has_value());
    return parsed.error().first();
}

}  // namespace

TEST_CASE("a plan reads targets as strings or mappings, with typed static options") {
    const auto parsed = parse_plan_text(R"(model_type: qwen3_moe
plan_overrides:
  - match: ["*.input_layernorm", "model.norm"]
    module_type: a.b.Norm
    replace_module:
      _target_: hyper_parallel.models.qwen3_moe.adapter.replacements.f
      use_fused_ops: false
      eps: 1e-5
      count: 3
      name: "3"
      nothing: null
      plain: text
  - match: "*.mlp"
    when: ep
    region_dispatch: false
    params: {w: shard(0)}
    local_compute_fn: hyper_parallel.x.compute
  - match: "*.self_attn"
    when: cp
    inner_target: self
    inner_wrapper:
      target: hyper_parallel.models.qwen3_moe.adapter.w
    tp_divide_attrs: [num_heads]
)",
                                        "plan.yaml");
    REQUIRE(parsed.has_value());
    const auto& plan = *parsed;
    CHECK(plan.model_type == "qwen3_moe");
    REQUIRE(plan.entries.size() == 3);
    const auto& first = plan.entries[0];
    CHECK(first.match == std::vector<std::string>{"*.input_layernorm", "model.norm"});
    REQUIRE(first.replace_module.has_value());
    CHECK(first.replace_module->path == "hyper_parallel.models.qwen3_moe.adapter.replacements.f");
    CHECK(first.replace_module->location.line == 5);
    const auto& options = first.replace_module->options;
    CHECK(options.at("use_fused_ops") == famspec::PyLiteral(false));
    CHECK(options.at("eps") == famspec::PyLiteral(1e-5));
    CHECK(options.at("count") == famspec::PyLiteral(3));
    CHECK(options.at("name") == famspec::PyLiteral("3"));
    CHECK(options.at("nothing").is_none());
    CHECK(options.at("plain") == famspec::PyLiteral("text"));
    CHECK(plan.entries[1].local_compute_fn->path == "hyper_parallel.x.compute");
    CHECK(plan.entries[1].local_compute_fn->options.empty());
    CHECK(plan.entries[2].inner_wrapper->path == "hyper_parallel.models.qwen3_moe.adapter.w");
    CHECK(plan.entries[2].inner_target == "self");
}

TEST_CASE("bad plans are refused with file, line, column and what was expected") {
    SUBCASE("not YAML") {
        const auto e = error_of("plan_overrides: [\n  - match: x\n");
        CHECK(e.file == "plan.yaml");
        CHECK(e.message.find("not valid YAML") == 0);
        CHECK(e.location.line >= 2);
    }
    SUBCASE("not a mapping") {
        const auto e = error_of("- a\n- b\n");
        CHECK(e.to_string() == "plan.yaml:1:1: expected a mapping with a plan_overrides list, found a list");
    }
    SUBCASE("no plan_overrides") {
        CHECK(error_of("model_type: x\n").message == "expected a top-level plan_overrides list");
    }
    SUBCASE("a near miss of a top-level key, read strictly") {
        const auto parsed = parse_plan_text("plan_overrides: []\nplan_override: []\n", "plan.yaml", {}, true);
        REQUIRE(!parsed.has_value());
        CHECK(parsed.error().first().to_string() ==
              "plan.yaml:2:1: top-level key 'plan_override' is not read by famspec (did you mean `plan_overrides`?) "
              "(an error under strict reading)");
    }
    SUBCASE("an unread entry key, read strictly") {
        const auto parsed =
            parse_plan_text("plan_overrides:\n  - match: x\n    replace_modul: a.b\n", "plan.yaml", {}, true);
        REQUIRE(!parsed.has_value());
        CHECK(parsed.error().first().location.line == 3);
        CHECK(parsed.error().first().location.column == 5);
        CHECK(parsed.error().first().message ==
              "plan_overrides entry key 'replace_modul' is not read by famspec (did you mean `replace_module`?) (an "
              "error under strict reading)");
    }
    SUBCASE("wrong type") {
        const auto e = error_of("plan_overrides:\n  - match: x\n    exact_type: maybe\n");
        CHECK(e.to_string() == "plan.yaml:3:17: 'exact_type': expected true or false, found 'maybe'");
    }
    SUBCASE("a number where a class path is expected") {
        const auto e = error_of("plan_overrides:\n  - match: x\n    module_type: 3\n    replace_module: a.b\n");
        CHECK(e.to_string() == "plan.yaml:3:18: 'module_type': expected a string, found '3'");
    }
    SUBCASE("replace_module without module_type") {
        const auto e = error_of("plan_overrides:\n  - match: x\n    replace_module: a.b.c\n");
        CHECK(e.to_string() ==
              "plan.yaml:2:5: an entry with replace_module needs module_type (the dotted source class it replaces)");
    }
    SUBCASE("a target without a path") {
        const auto e = error_of("plan_overrides:\n  - match: x\n    local_compute_fn:\n      use_x: true\n");
        CHECK(e.to_string() == "plan.yaml:4:7: 'local_compute_fn': the target has no _target_ path");
    }
    SUBCASE("a nested option") {
        const auto e =
            error_of("plan_overrides:\n  - match: x\n    local_compute_fn:\n      _target_: a.b\n      cfg: {a: 1}\n");
        CHECK(e.message == "option 'cfg': expected a scalar (bool, number, string or null), found a mapping");
    }
    SUBCASE("replace_module under another when") {
        const auto e =
            error_of("plan_overrides:\n  - match: x\n    when: ep\n    module_type: a.B\n    replace_module: a.b\n");
        CHECK(e.message == "replace_module only allows when: low_precision, found when: 'ep'");
    }
    SUBCASE("a key given twice") {
        const auto e = error_of("plan_overrides:\n  - match: x\n    when: ep\n    when: cp\n");
        CHECK(e.to_string() == "plan.yaml:4:5: duplicate key 'when'");
    }
    SUBCASE("a match list on a strategy entry") {
        const auto e = error_of("plan_overrides:\n  - match: [a, b]\n    inner_wrapper: a.b\n");
        CHECK(e.message == "a list of match patterns is allowed only on replacement-only entries");
    }
    SUBCASE("limits") {
        PlanLimits small;
        small.max_bytes = 10;
        CHECK(error_of("plan_overrides: []\n", small).message == "plan is 19 bytes; the limit is 10");
        PlanLimits shallow;
        shallow.max_depth = 3;
        CHECK(error_of("plan_overrides:\n  - match: x\n    params: {a: {b: c}}\n", shallow).message ==
              "nesting deeper than 3 levels");
        PlanLimits few;
        few.max_entries = 1;
        CHECK(error_of("plan_overrides:\n  - match: x\n  - match: y\n", few).message ==
              "plan_overrides has 2 entries; the limit is 1");
    }
}

TEST_CASE("unread keys are warnings by default, and the rest of the plan is read") {
    const auto parsed =
        parse_plan_text("plan_overrides:\n  - match: x\n    module_tpye: a.B\n  - match: y\n", "plan.yaml");
    REQUIRE(parsed.has_value());
    CHECK(parsed->entries.size() == 2);
    REQUIRE(parsed->warnings.size() == 1);
    CHECK(parsed->warnings[0].to_string() ==
          "plan.yaml:3:5: warning: plan_overrides entry key 'module_tpye' is not read by famspec (did you mean "
          "`module_type`?)");
    CHECK(parsed->warnings[0].suggestion == "module_type");
}

TEST_CASE("a near miss of a slot name says its target is left out, and suggests the slot") {
    const auto parsed = parse_plan_text(
        "plan_overrides:\n  - match: x\n    module_type: a.B\n    replace_modul: a.b\n"
        "  - match: y\n    when: ep\n    local_compute_f: a.c\n  - match: z\n    inner_wraper: a.d\n",
        "plan.yaml");
    REQUIRE(parsed.has_value());
    CHECK(parsed->entries.size() == 3);
    REQUIRE(parsed->warnings.size() == 3);
    CHECK(parsed->warnings[0].to_string() ==
          "plan.yaml:4:5: warning: plan_overrides entry key 'replace_modul' is not read by famspec (did you mean "
          "`replace_module`?): the target under it would be left out");
    CHECK(parsed->warnings[1].suggestion == "local_compute_fn");
    CHECK(parsed->warnings[2].suggestion == "inner_wrapper");
    CHECK(parsed->warnings[0].suggestion == "replace_module");
}

TEST_CASE("the word on a key of an override record is the plan reader's, and so is the refusal") {
    CHECK_FALSE(unread_entry_key("params").has_value());
    CHECK_FALSE(unread_entry_key("replace_module").has_value());
    const auto slot = unread_entry_key("replace_modul");
    REQUIRE(slot.has_value());
    CHECK(slot->warning() ==
          "plan_overrides entry key 'replace_modul' is not read by famspec (did you mean `replace_module`?): the "
          "target under it would be left out");
    CHECK(slot->drops_target);
    const auto other = unread_entry_key("module_tpye");
    REQUIRE(other.has_value());
    CHECK(other->warning() ==
          "plan_overrides entry key 'module_tpye' is not read by famspec (did you mean `module_type`?)");
    CHECK_FALSE(other->drops_target);
    CHECK_FALSE(unread_top_level_key("training").has_value());  // the runtime's own section
    REQUIRE(unread_top_level_key("model_typ").has_value());
    CHECK(unread_top_level_key("model_typ")->suggestion == "model_type");

    const auto parsed =
        parse_plan_text("plan_overrides:\n  - match: x\n    inner_wraper: a.d\n    modul_type: a\n", "plan.yaml");
    REQUIRE(parsed.has_value());
    REQUIRE(parsed->warnings.size() == 2);
    CHECK(refuses_plan(parsed->warnings[0]));
    CHECK_FALSE(refuses_plan(parsed->warnings[1]));
    CHECK(plan_refusal_reason(1) ==
          "1 misspelt slot key(s): the plan is refused rather than answered without their "
          "targets");
}

TEST_CASE("entries that carry only the runtime's placement keys stay valid, without a word") {
    const auto parsed = parse_plan_text(
        "plan_overrides:\n  - match: '*.mlp'\n    params: {w1: [0, 1]}\n    in_src: [R]\n    in_dst: [S0]\n"
        "    out_src: [S0]\n    out_dst: [R]\n  - match: '*.attn'\n    tp_divide_attrs: [num_heads]\n"
        "    inner_out_src: self\n    region_dispatch: false\n",
        "plan.yaml");
    REQUIRE(parsed.has_value());
    CHECK(parsed->entries.size() == 2);
    CHECK(parsed->warnings.empty());
}

TEST_CASE("a plan_overrides list that is misspelt or not at the top level is named, strict or not") {
    const auto near = parse_plan_text("model_type: x\nplan_override:\n  - match: a\n", "plan.yaml");
    REQUIRE(!near.has_value());
    CHECK(near.error().first().to_string() ==
          "plan.yaml:1:1: expected a top-level plan_overrides list; 'plan_override' at 2:1 is not it (did you mean "
          "`plan_overrides`?)");
    const auto nested =
        parse_plan_text("model_type: x\ntraining:\n  steps: 3\n  plan_overrides:\n    - match: a\n", "plan.yaml");
    REQUIRE(!nested.has_value());
    CHECK(nested.error().first().to_string() ==
          "plan.yaml:1:1: expected a top-level plan_overrides list; a plan_overrides under 'training' at 4:3 is not "
          "read: famspec reads it only at the top level");
    const auto both = parse_plan_text(
        "plan_overrides: []\nextra:\n  - stage: 1\n    plan_overrides:\n      - match: a\n", "plan.yaml");
    REQUIRE(both.has_value());
    REQUIRE(both->warnings.size() == 1);
    CHECK(both->warnings[0].to_string() ==
          "plan.yaml:4:5: warning: a plan_overrides under 'extra' is not read by famspec: only the top-level "
          "one is");
}

TEST_CASE("model.model_type is read by nobody, and the plan says so") {
    const auto parsed =
        parse_plan_text("model:\n  _target_: a.b.build\n  model_type: qwen3_moe\nplan_overrides: []\n", "plan.yaml");
    REQUIRE(parsed.has_value());
    CHECK_FALSE(parsed->model_type.has_value());
    REQUIRE(parsed->warnings.size() == 1);
    CHECK(parsed->warnings[0].to_string() ==
          "plan.yaml:3:3: warning: model.model_type is not read by famspec: the family comes from the top-level "
          "model_type or architecture, else from model._target_ (or --model-type)");
}

TEST_CASE("a missing plan file is an error, not a crash") {
    const auto parsed = famspec::parse_plan_file("/nonexistent/plan.yaml");
    REQUIRE(!parsed.has_value());
    CHECK(parsed.error().first().message.rfind("cannot read the plan", 0) == 0);
}

TEST_CASE("a plan reports every error at once, in file order, up to the limit") {
    const std::string text =
        "plan_overrides:\n"                                     // 1
        "  - match: '*.a'\n"                                    // 2
        "    module_type: x y\n"                                // 3: not a dotted path
        "    replace_module: a.b\n"                             // 4
        "  - 42\n"                                              // 5: not a mapping
        "  - match: '*.c'\n"                                    // 6
        "    exact_type: maybe\n"                               // 7: not a boolean
        "    local_compute_fn: {_target_: a.b, bad-name: 1}\n"  // 8: not an identifier
        "model_type: 'has space'\n";                            // 9: not a family name
    const auto parsed = parse_plan_text(text, "many.yaml");
    REQUIRE_FALSE(parsed.has_value());
    std::vector<std::string> lines;
    for (const auto& error : parsed.error().errors) lines.push_back(error.to_string());
    CHECK(lines == std::vector<std::string>{
                       "many.yaml:3:18: 'module_type': expected a dotted Python path (module.Name), found 'x y'",
                       "many.yaml:5:5: plan_overrides entry: expected a mapping, found '42'",
                       "many.yaml:7:17: 'exact_type': expected true or false, found 'maybe'",
                       "many.yaml:8:39: option name 'bad-name' is not a Python identifier",
                       "many.yaml:9:13: 'model_type': expected a family name without spaces or quotes, found 'has "
                       "space'",
                   });
    REQUIRE_FALSE(parsed.has_value());
    CHECK(parsed.error().first().to_string() == lines.front());
    CHECK_FALSE(parsed.error().stopped_early);

    // At the limit, reading stops and says so.
    PlanLimits two;
    two.max_errors = 2;
    const auto capped = parse_plan_text(text, "many.yaml", two);
    CHECK(capped.error().errors.size() == 2);
    CHECK(capped.error().stopped_early);
    CHECK(capped.error().errors[1].to_string() == lines[1]);

    // An error that stops the reader (here, YAML it cannot read) is the only one.
    const auto broken = parse_plan_text("plan_overrides: [\n", "broken.yaml");
    CHECK(broken.error().errors.size() == 1);
    CHECK(broken.error().first().to_string() == broken.error().errors.front().to_string());
}

TEST_CASE("an alias reads as the node its anchor names, and an error in it is reported at the anchor") {
    const auto parsed = parse_plan_text(
        "plan_overrides:\n"
        "  - match: &layers [model.a, model.b]\n"
        "    module_type: &norm a.b.Norm\n"
        "    replace_module: &rms x.y.f\n"
        "  - match: *layers\n"
        "    module_type: *norm\n"
        "    replace_module: *rms\n",
        "plan.yaml");
    REQUIRE(parsed.has_value());
    REQUIRE(parsed->entries.size() == 2);
    CHECK(parsed->entries[1].match == std::vector<std::string>{"model.a", "model.b"});
    CHECK(parsed->entries[1].module_type == "a.b.Norm");
    CHECK(parsed->entries[1].replace_module->path == "x.y.f");

    const auto e = error_of(
        "plan_overrides:\n  - match: x\n    exact_type: &flag maybe\n  - match: y\n"
        "    exact_type: *flag\n");
    CHECK(e.to_string() == "plan.yaml:3:17: 'exact_type': expected true or false, found 'maybe'");
}

TEST_CASE("a plan is one document: a second one, or a token no document can start with, is refused") {
    CHECK(error_of("plan_overrides: []\n---\nplan_overrides: []\n").to_string() ==
          "plan.yaml:2:1: the plan holds a second YAML document; expected one");
    CHECK(error_of(",").to_string() == "plan.yaml:1:1: not valid YAML: unexpected ','");
    CHECK(error_of("").message == "the plan is empty; expected a mapping with a plan_overrides list");
}
