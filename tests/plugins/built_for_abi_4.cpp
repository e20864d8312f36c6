// What a plugin of ABI 4 or older carried that a core can see without loading it: a .famspec_manifest
// section, and no .famspec_tables. The loader names it as such, and both ABIs.
__attribute__((section(".famspec_manifest"), used)) const char kManifest[] =
    R"({"abi":{"descriptor_size":56,"major":4,"minor":0},"name":"built_for_abi_4"})";
