#include "famspec/nearest_names.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using famspec::did_you_mean;
using famspec::nearest_names;
using Names = std::vector<std::string>;

TEST_CASE("nearest names: a swap of neighbours is one edit, and ASCII case is ignored") {
    const Names keys = {"module_type", "replace_module", "exact_type"};
    CHECK(nearest_names("module_tpye", keys, 1) == Names{"module_type"});
    CHECK(nearest_names("Module_Type", keys, 1) == Names{"module_type"});
    CHECK(nearest_names("lst", Names{"list", "show", "summary"}) == Names{"list"});
}

TEST_CASE("nearest names: every one at the nearest distance, in byte order, at most `most`, never the name itself") {
    const Names candidates = {"abcf", "abcd", "abce", "abcdef", "abcd", "abcg"};
    CHECK(nearest_names("abcd", candidates) == Names{"abce", "abcf", "abcg"});
    CHECK(nearest_names("abcd", candidates, 2) == Names{"abce", "abcf"});
    CHECK(nearest_names("abcd", Names{"abcdef", "abcd"}) == Names{"abcdef"});
    CHECK(nearest_names("abcd", candidates, 0).empty());
}

TEST_CASE("nearest names: nothing past a third of the name's length, and at least two edits allowed") {
    CHECK(nearest_names("qwen3_mo", Names{"qwen3_moe", "llama"}) == Names{"qwen3_moe"});
    CHECK(nearest_names("ab", Names{"xy", "abcd", "abcde"}) == Names{"abcd", "xy"});
    CHECK(nearest_names("replace_module", Names{"local_compute_fn"}).empty());
    CHECK(nearest_names("", Names{"ab", "abc"}) == Names{"ab"});
}

TEST_CASE("did you mean: one wording for every message") {
    CHECK(did_you_mean({}).empty());
    CHECK(did_you_mean({"list"}) == " (did you mean `list`?)");
    CHECK(did_you_mean({"a", "b", "c"}) == " (did you mean `a`, `b` or `c`?)");
}

TEST_CASE("close names: every close candidate, best first, and every completion of the name") {
    using famspec::close_names;
    const Names families = {"qwen3_moe", "qwen3_5", "qwen3_5_text", "qwen2_moe", "deepseek_v3", "qwen3_5", "Qwen3MoeX"};
    // qwen3_5 is two edits away; the rest start with "qwen3", whatever their distance (then byte order).
    CHECK(close_names("qwen3", families) == Names{"qwen3_5", "Qwen3MoeX", "qwen3_moe", "qwen3_5_text"});
    CHECK(close_names("qwen3_mo", families) == Names{"qwen3_moe", "qwen2_moe", "qwen3_5"});
    // A name of fewer than 3 characters completes nothing; the name itself is never offered.
    CHECK(close_names("qw", families).empty());
    CHECK(close_names("qwen3_5", Names{"qwen3_5"}).empty());
    CHECK(close_names("llama", families).empty());
}
