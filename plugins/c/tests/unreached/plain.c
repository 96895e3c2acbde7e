/* No includes at all. */
int plain(void)
{
    secret();
    // Defined in the tree, but nothing in this translation unit declares it: never bound.
    // @fact edge CALLS plain.c::plain -> ?::plain.c::secret reason="not declared in the translation unit"
    // @fact no-edge CALLS plain.c::plain -> tools/secret.c::secret
    nowhere(1);
    // Defined nowhere and no header from outside the tree is included.
    // @fact edge CALLS plain.c::plain -> ?::plain.c::nowhere reason="not defined in the tree"
    return 0;
}
