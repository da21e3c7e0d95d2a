# embed_files(target name=path ...): a static library exposing each file's bytes as
#   extern const char gpuplan_embed_<name>[]; extern const unsigned long gpuplan_embed_<name>_size;
# declared in models/input/embedded.h. The files are read at configure time and re-read when they change.
function(embed_files target)
  set(out_dir ${CMAKE_BINARY_DIR}/embedded)
  file(MAKE_DIRECTORY ${out_dir})
  set(srcs)
  foreach(pair ${ARGN})
    string(REPLACE "=" ";" kv ${pair})
    list(GET kv 0 name)
    list(GET kv 1 path)
    set(out ${out_dir}/${name}.cpp)
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -DNAME=${name} -DIN=${path} -DOUT=${out} -P ${CMAKE_SOURCE_DIR}/cmake/embed_one.cmake
      DEPENDS ${path} ${CMAKE_SOURCE_DIR}/cmake/embed_one.cmake VERBATIM)
    list(APPEND srcs ${out})
  endforeach()
  add_library(${target} STATIC ${srcs})
endfunction()
