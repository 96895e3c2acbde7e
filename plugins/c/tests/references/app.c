#include "events.h"

static handler h;

static void on_quit(int code)
{
    on(EV_KEY, on_key);
    // A callback registered inside a callback: the call and the references belong to on_quit.
    // @fact edge CALLS app.c::on_quit -> events.c::on by=include
    // @fact edge REFERENCES app.c::on_quit -> events.c::on_key by=include confidence=high
    // @fact edge REFERENCES app.c::on_quit -> events.h::EV_KEY by=include
}

struct binding { int ev; handler h; };
static struct binding bindings[] = { { 2, on_quit }, { .ev = 3, .h = on_key } };
// Functions in a global's initialiser: references from that global.
// @fact edge REFERENCES app.c::bindings -> app.c::on_quit by=scope
// @fact edge REFERENCES app.c::bindings -> events.c::on_key by=include

int setup(void)
{
    handler h = on_quit;
    // @fact edge REFERENCES app.c::setup -> app.c::on_quit by=scope
    on(2, h);
    // The local h shadows the global h.
    // @fact no-edge REFERENCES app.c::setup -> app.c::h
    // @fact node app.c::h Var visibility=static
    return event_count;
    // An `extern` global declared by the header, defined once in the tree.
    // @fact edge REFERENCES app.c::setup -> events.c::event_count by=include
}

int shadow(int on_key)
{
    return on_key;
    // A parameter shadows the function of that name.
    // @fact no-edge REFERENCES app.c::shadow -> events.c::on_key
}
