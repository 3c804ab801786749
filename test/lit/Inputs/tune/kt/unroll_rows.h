// included by unroll.cu and unroll_none.cu from their own folder
#define ROWS 32
#define COLUMNS 65536
