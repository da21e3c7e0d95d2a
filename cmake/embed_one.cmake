# Writes OUT: a C++ file holding IN's bytes as a char array (hex, so any content is safe).
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" n_hex)
math(EXPR n "${n_hex} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," body "${hex}")
file(WRITE ${OUT} "// generated from ${IN}; do not edit\n"
  "extern const char gpuplan_embed_${NAME}[] = {${body} '\\0'};\n"
  "extern const unsigned long gpuplan_embed_${NAME}_size = ${n};\n")
