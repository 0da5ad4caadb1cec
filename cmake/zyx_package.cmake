# The installable package (docs/install.md), included by the top CMakeLists.txt after every stage.
#
#   zyx_shared  lib/libzyx.so: the objects of the static `zyx` library and of every static
#               library of this tree it links, linked once more into one shared library (no
#               recompilation: everything is built -fPIC). Installed and exported as zyx::zyx.
#               Nothing in this tree links it: tests and examples link the static `zyx`, and a
#               program must never hold both (every global, the device registry among them,
#               would exist twice).
#   install     component zyx: libzyx.so*, the public headers include/zyx/*.hpp (with
#               zyx/core/{dtype,error}.hpp, which tensor.hpp includes as "core/…"),
#               lib/cmake/zyx/ (config, version and targets files), lib/pkgconfig/zyx.pc.
#               Component zyx_tt (runtime/, emulator/): libexec/zyx/zyx-tt-runtime and the kernel
#               API headers it compiles kernels against, share/zyx/emulator/include.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

if(NOT TARGET zyx)
  return()
endif()

# The static libraries of this tree that `zyx` links, directly or through each other.
function(zyx_package_static_closure out)
  set(todo zyx)
  set(seen "")
  while(todo)
    list(POP_FRONT todo lib)
    if(lib IN_LIST seen OR NOT TARGET ${lib})
      continue()
    endif()
    get_target_property(type ${lib} TYPE)
    get_target_property(imported ${lib} IMPORTED)
    if(imported OR NOT type STREQUAL "STATIC_LIBRARY")
      continue()
    endif()
    list(APPEND seen ${lib})
    get_target_property(deps ${lib} LINK_LIBRARIES)
    if(deps)
      list(APPEND todo ${deps})
    endif()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()
zyx_package_static_closure(zyx_package_libs)

# A 0.x release may break the ABI with every minor version: the soname carries major.minor then.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(zyx_soversion ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  set(zyx_version_compat SameMinorVersion)
else()
  set(zyx_soversion ${PROJECT_VERSION_MAJOR})
  set(zyx_version_compat SameMajorVersion)
endif()

add_library(zyx_shared SHARED)
foreach(lib ${zyx_package_libs})
  target_sources(zyx_shared PRIVATE $<TARGET_OBJECTS:${lib}>)
endforeach()
# The archives again, after their own objects, bring the external libraries they link (zlib,
# OpenBLAS, Boost, -ldl …); no archive member is pulled in twice, since every symbol it defines
# is already defined by the objects above.
target_link_libraries(zyx_shared PRIVATE ${zyx_package_libs})
# Every symbol resolved at link time (not with sanitizers, whose runtime the executable brings).
if(NOT ZYX_SANITIZE AND NOT CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  target_link_options(zyx_shared PRIVATE LINKER:--no-undefined)
endif()
target_include_directories(zyx_shared INTERFACE
  $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include> $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/src>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(zyx_shared INTERFACE cxx_std_20)
set_target_properties(zyx_shared PROPERTIES
  OUTPUT_NAME zyx EXPORT_NAME zyx VERSION ${PROJECT_VERSION} SOVERSION ${zyx_soversion})

# ---- install ------------------------------------------------------------------------------------
set(zyx_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/zyx)
set(zyx_gen_dir ${CMAKE_BINARY_DIR}/package)

install(TARGETS zyx_shared EXPORT zyxTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT zyx NAMELINK_COMPONENT zyx)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/zyx DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT zyx FILES_MATCHING PATTERN "*.hpp")
# tensor.hpp includes "core/dtype.hpp" and "core/error.hpp", which a compiler looks for first in
# the including header's own directory: installed there, the public headers need nothing else.
install(FILES ${CMAKE_SOURCE_DIR}/src/core/dtype.hpp ${CMAKE_SOURCE_DIR}/src/core/error.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/zyx/core COMPONENT zyx)

install(EXPORT zyxTargets NAMESPACE zyx:: FILE zyxTargets.cmake DESTINATION ${zyx_cmake_dir} COMPONENT zyx)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/zyxConfig.cmake.in ${zyx_gen_dir}/zyxConfig.cmake
  INSTALL_DESTINATION ${zyx_cmake_dir})
write_basic_package_version_file(${zyx_gen_dir}/zyxConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${zyx_version_compat})
install(FILES ${zyx_gen_dir}/zyxConfig.cmake ${zyx_gen_dir}/zyxConfigVersion.cmake
  DESTINATION ${zyx_cmake_dir} COMPONENT zyx)

# zyx.pc finds its prefix from its own place (${pcfiledir}), so the package can be installed
# with `cmake --install … --prefix <anywhere>` or moved.
foreach(kind LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${kind}}")
    set(zyx_pc_${kind} "${CMAKE_INSTALL_${kind}}")
  else()
    set(zyx_pc_${kind} "\${prefix}/${CMAKE_INSTALL_${kind}}")
  endif()
endforeach()
file(RELATIVE_PATH zyx_pc_prefix_rel ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" zyx_pc_prefix_rel "${zyx_pc_prefix_rel}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/zyx.pc.in ${zyx_gen_dir}/zyx.pc @ONLY)
install(FILES ${zyx_gen_dir}/zyx.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT zyx)
