typedef void (*handler)(int);
void on(int ev, handler h);
void on_key(int code);
extern int event_count;
#define EV_KEY 1
