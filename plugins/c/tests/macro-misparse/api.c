#include "api.h"

LUA_API int lua_gettop (State *L) { return 0; }
LUA_API void *lua_touserdata (State *L, int idx) { return 0; }
lua_Integer luaV_idiv (State *L, lua_Integer x, lua_Integer y) { return x / y; }
lu_byte luaH_get (State *L, int key) { return 0; }
size_t luaH_size (State *L) { return 0; }
void grow_stack(State *L, int n, int p) { }
// @fact node api.c::lua_gettop Function declared_in=api.h
// @fact node api.c::luaV_idiv Function declared_in=api.h
// @fact node api.c::luaH_get Function declared_in=api.h
// @fact node api.c::luaH_size Function declared_in=api.h

int CALLCONV entry(void)
{
    return lua_gettop(0);
    // `int CALLCONV entry(void)` still defines entry.
    // @fact node api.c::entry Function
    // @fact edge CALLS api.c::entry -> api.c::lua_gettop by=scope
}

const TValue nil_object = { 0 };
// @fact node api.c::nil_object Var declared_in=api.h
