/* Declares helper itself and includes neither header: nothing proves which definition. */
int helper(int x);
int stray(void)
{
    return helper(3);
    // @fact edge CALLS prog2/stray.c::stray -> ?::prog2/stray.c::helper reason="ambiguous: 2 candidates"
    // @fact no-edge CALLS prog2/stray.c::stray -> prog1/helper.c::helper
    // @fact no-edge CALLS prog2/stray.c::stray -> prog2/helper.c::helper
}
