/* cooperative_groups/reduce.h: cg::reduce and its operators live in wgperf's
 * cooperative_groups.h. */
#include "../cooperative_groups.h"
