typedef struct vec { double x, y; } vec;
struct box;
typedef struct box box_t;
typedef int vec2;
struct vec2 { int a; };
// Tag space and ordinary space are distinct: `struct vec2` and the typedef vec2.
// @fact node geo.h::vec2 TypeAlias
// @fact node "geo.h::struct vec2" Struct
