# ctest fixture: configures and builds the example project (this folder) in BUILD against the
# package in PACKAGE_DIR with the compiler CXX (and LAUNCHER, FLAGS: the parent build's ccache
# and sanitizer flags, so that a sanitized library links into sanitized programs).
set(args -S ${SOURCE} -B ${BUILD} -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX}
  -Dzyx-tt-metal_DIR=${PACKAGE_DIR})
if(LAUNCHER)
  list(APPEND args -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
if(FLAGS)
  list(APPEND args "-DCMAKE_CXX_FLAGS=${FLAGS}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} ${args} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the examples against ${PACKAGE_DIR} failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the examples failed (${rc})")
endif()
