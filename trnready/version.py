"""The package version (its own module so that modules needing it do not import the package root)."""
__version__ = "0.1.0"
