"""Play by post: turn posts for forums and mail (`aare post`, `aare import`), their attachment and the
commit–reveal dice of posted games (docs/play-by-post.md)."""
