// libzyx-tt-metal.so (emulator/compat/CMakeLists.txt) is zyx_tt_metal_compat and the emulator
// linked whole. CMake makes a shared library only from a target with a source of its own: this
// file, which adds nothing.
