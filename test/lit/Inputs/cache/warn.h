#define STRIDE 1
