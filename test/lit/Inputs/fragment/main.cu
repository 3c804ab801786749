// A program whose kernel lives in a file it #includes (as Rodinia's nw, bfs, srad_v1
// do): the kernel's file does not compile by itself.
#include <stdio.h>
typedef float fp;
struct Elem { fp value; int next; };
#include "middle.cu"
int main() {
  Elem *d = 0;
  scale<<<4, 64>>>(d, 2.0f, 256);
  printf("done\n");
  return 0;
}
