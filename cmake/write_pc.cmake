# Run at install time (see install.cmake): writes fastjson.pc for the prefix
# actually installed to, and records it in the install manifest.
set(prefix "${CMAKE_INSTALL_PREFIX}")
if(IS_ABSOLUTE "${FJ_PC_DIR}")
  set(_dir "$ENV{DESTDIR}${FJ_PC_DIR}")
else()
  set(_dir "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${FJ_PC_DIR}")
endif()
configure_file("${FJ_PC_IN}" "${_dir}/fastjson.pc" @ONLY)
message(STATUS "Installing: ${_dir}/fastjson.pc")
list(APPEND CMAKE_INSTALL_MANIFEST_FILES "${_dir}/fastjson.pc")
