# ctest driver for an example whose kernels print: runs PROGRAM with TT_METAL_DPRINT_CORES set
# and TT_METAL_HOME=${TT_METAL_HOME}, fails when it exits non-zero or when a line of the file
# EXPECT is missing from its stdout (order not checked: cores print concurrently).
set(ENV{TT_METAL_HOME} "${TT_METAL_HOME}")
set(ENV{TT_METAL_DPRINT_CORES} "all")
execute_process(COMMAND ${PROGRAM} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}:\n${err}")
endif()
file(STRINGS ${EXPECT} expected)
foreach(line ${expected})
  string(FIND "${out}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "missing from the output: ${line}")
  endif()
endforeach()
