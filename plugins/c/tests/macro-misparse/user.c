#include <stdio.h>
#include "api.h"

int user(State *L)
{
    lua_gettop(L);
    lua_touserdata(L, 1);
    luaV_idiv(L, 4, 2);
    luaH_get(L, 3);
    // Prototypes behind API macros still declare their functions.
    // @fact edge CALLS user.c::user -> api.c::lua_gettop by=include confidence=high
    // @fact edge CALLS user.c::user -> api.c::lua_touserdata by=include confidence=high
    // @fact edge CALLS user.c::user -> api.c::luaV_idiv by=include confidence=high
    // @fact edge CALLS user.c::user -> api.c::luaH_get by=include confidence=high
    Module_Reply(L, 0);
    // A function-pointer global behind an API macro: dynamic, never an External.
    // @fact edge CALLS user.c::user -> ?::user.c::Module_Reply reason="dynamic call"
    // @fact no-edge CALLS user.c::user -> c:Module_Reply
    checkstackp(L, 1, L);
    // A macro whose continuation holds a comment.
    // @fact edge CALLS user.c::user -> api.h::checkstackp by=include
    // @fact no-edge CALLS user.c::user -> c:checkstackp
    return (lua_Integer)(L != 0);
    // @fact no-edge CALLS user.c::user -> "?::user.c::(lua_Integer)"
}

const TValue *nil(void)
{
    return &nil_object;
    // @fact edge REFERENCES user.c::nil -> api.c::nil_object by=include confidence=high
}
