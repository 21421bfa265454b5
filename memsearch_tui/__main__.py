"""``python -m memsearch_tui``: the same CLI as the ``memsearch-tui`` console script.

install writes ``<python> -m memsearch_tui`` into the hosts' hooks and MCP entries when no
console script sits beside the interpreter (engine/hosts/wiring.launcher), so this module
is what those hooks and servers run.
"""

from memsearch_tui.cli import main

if __name__ == "__main__":
    main()
