// An ordinary shared library with no FAMSPEC_PLUGIN: it has no .famspec_tables section, so it is no
// plugin, and the loader says so at the manifest stage.
namespace {
int answer() { return 42; }
}  // namespace

int zoo_no_table_section_value() { return answer(); }
