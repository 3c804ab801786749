#define ELEM float
