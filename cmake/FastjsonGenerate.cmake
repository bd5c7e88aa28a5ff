# Struct codecs: the fastjson-gen generator and fastjson_generate().
#
#   fastjson_generate(TARGET <target> SCHEMA <schema.json> [NAME <base>])
#
# runs fastjson-gen on the schema at build time, adds <base>.c (and .h) to the
# target's sources and their folder to its include path. The files are made
# again whenever the schema or the generator changes. <base> defaults to the
# schema's file name without its extension; include "<base>.h". In this
# source tree it uses the fastjson_gen target; after find_package(fastjson)
# (this file is installed with the package) the installed fastjson-gen.

if(FJ_BUILD_TOOLS AND NOT TARGET fastjson_gen)
  add_executable(fastjson_gen ${CMAKE_CURRENT_LIST_DIR}/../tools/fastjson_gen.c)
  set_target_properties(fastjson_gen PROPERTIES OUTPUT_NAME fastjson-gen)
  target_link_libraries(fastjson_gen PRIVATE fastjson_static)
  target_compile_options(fastjson_gen PRIVATE ${FJ_WARNINGS})
  include(GNUInstallDirs)
endif()

function(fastjson_generate)
  cmake_parse_arguments(FJG "" "TARGET;SCHEMA;NAME" "" ${ARGN})
  if(NOT FJG_TARGET OR NOT FJG_SCHEMA)
    message(FATAL_ERROR "fastjson_generate: TARGET and SCHEMA are required")
  endif()
  get_filename_component(schema "${FJG_SCHEMA}" ABSOLUTE)
  if(NOT FJG_NAME)
    get_filename_component(FJG_NAME "${schema}" NAME_WE)
  endif()
  if(TARGET fastjson_gen)
    # the target name (not its file) lets CMake prepend the cross-compiling
    # emulator, so a cross build (e.g. the AArch64 CI job) runs it under qemu
    set(gen fastjson_gen)
    set(gen_dep fastjson_gen)
  elseif(TARGET fastjson::fastjson_gen) # an installed package's (find_package)
    set(gen fastjson::fastjson_gen)
    set(gen_dep fastjson::fastjson_gen)
  else()
    find_program(FASTJSON_GEN_EXECUTABLE fastjson-gen REQUIRED)
    set(gen ${FASTJSON_GEN_EXECUTABLE})
    set(gen_dep ${FASTJSON_GEN_EXECUTABLE})
  endif()
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/fastjson_gen/${FJG_TARGET})
  set(base ${dir}/${FJG_NAME})
  add_custom_command(
    OUTPUT ${base}.h ${base}.c
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${gen} ${schema} ${base}
    DEPENDS ${schema} ${gen_dep}
    COMMENT "fastjson-gen ${FJG_SCHEMA}"
    VERBATIM)
  target_sources(${FJG_TARGET} PRIVATE ${base}.c ${base}.h)
  target_include_directories(${FJG_TARGET} PRIVATE ${dir})
endfunction()
