"""The Index pane, in four parts: ``model`` (plain data, no Textual), ``tree`` (the lazy
category tree widget), ``detail`` (the selected entry or category) and ``pane`` (the
controller: loading, filtering, actions)."""
