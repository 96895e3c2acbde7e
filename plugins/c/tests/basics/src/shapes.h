#ifndef SHAPES_H
#define SHAPES_H
// @fact node src/shapes.h File
// @fact no-node src/shapes.h::SHAPES_H
// Include guards (a bare #define) are not nodes.

#define MAX_SHAPES 16
// @fact node src/shapes.h::MAX_SHAPES Const kind=macro signature="#define MAX_SHAPES 16"
#define AREA(w, h) ((w) * (h))
// @fact node src/shapes.h::AREA Function kind=macro

/** A point on the plane. */
struct point { int x; int y; };
// @fact node src/shapes.h::point Struct doc_comment="/** A point on the plane. */" line=13

typedef struct rect { struct point a, b; } rect;
// typedef struct rect {...} rect: one node, the struct.
// @fact node src/shapes.h::rect Struct line=16
// @fact edge CONTAINS src/shapes.h -> src/shapes.h::rect

typedef struct { double r; } circle;
// An anonymous struct named by a typedef is a Struct keyed by that name.
// @fact node src/shapes.h::circle Struct

union number { int i; double d; };
// @fact node src/shapes.h::number Struct kind=union
enum color { RED, GREEN, BLUE };
// @fact node src/shapes.h::color Enum
typedef enum color color_t;
// @fact node src/shapes.h::color_t TypeAlias
typedef int (*shape_cb)(const struct point *p);
// @fact node src/shapes.h::shape_cb TypeAlias

int shape_count(void);
extern int shapes_made;
// Prototypes and extern declarations are not nodes.
// @fact no-node src/shapes.h::shape_count
// @fact no-node src/shapes.h::shapes_made

#endif
