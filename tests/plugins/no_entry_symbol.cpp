// Carries a valid manifest but defines no FAMSPEC_PLUGIN descriptor: the loader must stop at the
// entry stage once the library is open.
namespace {
int answer() { return 42; }
}  // namespace

// Keeps the library non-empty without exporting anything the version script would publish.
int zoo_no_entry_symbol_value() { return answer(); }
