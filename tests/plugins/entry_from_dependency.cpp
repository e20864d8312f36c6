// Defines no descriptor, but a library it depends on exports one: dlsym finds that one through the
// dependency, and the loader must refuse an entry symbol that is not defined in the plugin itself.
extern "C" int zoo_entry_provider_value();

// Referenced so that the dependency is kept even when linking --as-needed.
int zoo_entry_from_dependency_value() { return zoo_entry_provider_value(); }
