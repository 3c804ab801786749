# embed.cmake - turns the OpenCL kernels into C arrays, so the programs carry them.
#   cmake -DSRC_DIR=<kernels dir> -DOUT=<file.c> -P embed.cmake
# Writes one `const char wgb_src_NAME[]` (NUL-terminated) per kernels/NAME.cl.
# build-standalone.sh makes the same file with od(1) where CMake is not used.
set(names chase stream arith sync clock)
set(text "/* generated from microbench/opencl/kernels by embed.cmake: do not edit */\n")
foreach(n ${names})
  file(READ ${SRC_DIR}/${n}.cl hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
  string(APPEND text "const char wgb_src_${n}[] = {${hex}0};\n")
endforeach()
file(WRITE ${OUT}.tmp "${text}")
file(RENAME ${OUT}.tmp ${OUT})
