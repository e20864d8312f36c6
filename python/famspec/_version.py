"""The version of the famspec core this package is built on, and the plugin ABI it loads."""

from . import _native

__version__ = _native.version
#: The plugin ABI (major.minor) this core loads.
ABI = _native.abi
