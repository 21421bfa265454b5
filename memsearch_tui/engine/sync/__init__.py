"""Sync of the three-tier store between devices over git; merging is ours (see ``run``)."""
