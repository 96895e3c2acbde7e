#define pub() 3
