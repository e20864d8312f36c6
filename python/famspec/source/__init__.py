"""The runtime's Python source read with ``ast`` (nothing of it imported), the one reader under both
``famspec sync`` (which generates plugins from it) and ``famspec audit`` (which proves them against it):
the tree and its modules (``source_tree``), the providers a registration hands over (``providers``),
what a factory returns (``construction``), signatures and ``Literal[...]`` values (``signatures``,
``literals``), the runtime's own conventions (``runtime``), its family registry (``registry_tables``) and the core's
rule for the key a family is looked up by (``family_keys``)."""
