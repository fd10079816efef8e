"""Browser-facing pieces: the world map geometry and its SVG rendering."""
