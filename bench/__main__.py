import sys
from importlib import import_module

COMMANDS = {"speed": "speed", "ab": "ab", "accuracy": "accuracy", "surface": "surface", "html": "html_size"}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: python -m bench {{{','.join(COMMANDS)}}} [options]", file=sys.stderr)
        return 2
    module = import_module(f"bench.{COMMANDS[argv[0]]}")
    return module.main(argv[1:]) or 0


sys.exit(main(sys.argv[1:]))
