# The commit iogauge is built from, for --version: `git describe` of the
# source folder, or "unknown" when that folder is not the top of a git
# checkout (a source tarball, even one unpacked inside some other
# checkout, whose commit would be a stranger's).
#
# Runs on its own at every build, so that a commit made since CMake
# configured is not missed; configure_file() rewrites the header only when
# a line changed, so an unchanged commit recompiles nothing:
#   cmake -DSRC=folder -DIN=build_info.h.in -DOUT=build_info.h -D... -P BuildInfo.cmake
# and for tests/cli/install.py, prints the description:
#   cmake -DSRC=folder -P cmake/BuildInfo.cmake
function(iogauge_git_describe src out)
  set(desc unknown)
  find_program(IOGAUGE_GIT git)
  if(IOGAUGE_GIT)
    execute_process(COMMAND ${IOGAUGE_GIT} -C ${src} rev-parse --show-toplevel
      OUTPUT_VARIABLE top RESULT_VARIABLE rc
      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    get_filename_component(src_real "${src}" REALPATH)
    if(rc EQUAL 0)
      get_filename_component(top_real "${top}" REALPATH)
    endif()
    if(rc EQUAL 0 AND top_real STREQUAL src_real)
      execute_process(COMMAND ${IOGAUGE_GIT} -C ${src} describe --always --tags --dirty
        OUTPUT_VARIABLE d RESULT_VARIABLE rc
        OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      if(rc EQUAL 0 AND d)
        set(desc "${d}")
      endif()
    endif()
  endif()
  set(${out} "${desc}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED SRC)
  iogauge_git_describe("${SRC}" IOGAUGE_GIT_DESCRIBE)
  if(DEFINED OUT)
    configure_file("${IN}" "${OUT}" @ONLY)
  else()
    message("${IOGAUGE_GIT_DESCRIBE}")
  endif()
endif()
