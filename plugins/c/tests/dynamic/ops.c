#include "ops.h"

int read(int fd) { return fd; }
// @fact node ops.c::read Function declared_in=ops.h
void close(int fd) { }
int (*global_hook)(int) = read;
// @fact node ops.c::global_hook Var declared_in=ops.h
static reader_fn table[2] = { read, read };

int dispatch(struct ops *o, struct ops s, int (*cb)(int), int fd)
{
    o->read(fd);
    s.close(fd);
    // Calls through function-pointer fields, even where a function of that name exists.
    // @fact edge CALLS ops.c::dispatch -> ?::ops.c::o->read reason="dynamic call"
    // @fact edge CALLS ops.c::dispatch -> ?::ops.c::s.close reason="dynamic call"
    // @fact no-edge CALLS ops.c::dispatch -> ops.c::read
    // @fact no-edge CALLS ops.c::dispatch -> ops.c::close
    cb(fd);
    // A parameter: a function pointer.
    // @fact edge CALLS ops.c::dispatch -> ?::ops.c::cb reason="dynamic call"
    reader_fn local = read;
    local(fd);
    // @fact edge CALLS ops.c::dispatch -> ?::ops.c::local reason="dynamic call"
    (*cb)(fd);
    table[0](fd);
    // @fact edge CALLS ops.c::dispatch -> "?::ops.c::(*cb)" reason="dynamic call"
    // @fact edge CALLS ops.c::dispatch -> "?::ops.c::table[0]" reason="dynamic call"
    global_hook(fd);
    // A global function pointer.
    // @fact edge CALLS ops.c::dispatch -> ?::ops.c::global_hook reason="dynamic call"
    // @fact no-edge CALLS ops.c::dispatch -> ops.c::global_hook
    return (ssize_like)(fd);
    // A cast the grammar reads as a call: no edge at all.
    // @fact no-edge CALLS ops.c::dispatch -> "?::ops.c::(ssize_like)"
}
