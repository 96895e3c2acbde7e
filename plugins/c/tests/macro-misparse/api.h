/* Export and calling-convention macros the grammar cannot expand (Lua, Redis, cJSON styles). */
#define LUA_API extern
#define LUAI_FUNC extern
#define MOD_API
#define CALLCONV
typedef long lua_Integer;
typedef unsigned char lu_byte;
typedef struct State State;

LUA_API int (lua_gettop) (State *L);
LUA_API void *(lua_touserdata) (State *L, int idx);
LUAI_FUNC lua_Integer luaV_idiv (State *L, lua_Integer x, lua_Integer y);
LUAI_FUNC lu_byte luaH_get (State *L, int key);
LUAI_FUNC size_t luaH_size (State *L);
MOD_API int (*Module_Reply)(State *L, int code) ATTR;
// No global named after a macro-swallowed type.
// @fact no-node api.h::size_t
// @fact node api.h::lu_byte TypeAlias
// @fact node api.h::Module_Reply Var

/* check the stack, keeping p */
#define checkstackp(L,n,p)  \
  grow_stack(L, n, \
    p = 0)  /* 'pos' part */ \
    ;
// @fact node api.h::checkstackp Function kind=macro

#define API_DATA extern
typedef struct { int tt; } TValue;
API_DATA const TValue nil_object;
// `API_DATA const TValue nil_object;`: a declaration of nil_object, no global named TValue.
// @fact node api.h::TValue Struct
// @fact no-node api.h::nil_object
