# Run by CPack (CPACK_PRE_BUILD_SCRIPTS) on the staged files before the
# .deb is made: what Debian's policy asks of a package's files.
if(NOT CPACK_GENERATOR STREQUAL "DEB")
  return()
endif()
# CPackDeb's prefix is /usr unless CPACK_PACKAGING_INSTALL_PREFIX says.
set(prefix /usr)
if(CPACK_PACKAGING_INSTALL_PREFIX)
  set(prefix "${CPACK_PACKAGING_INSTALL_PREFIX}")
endif()
set(root "${CPACK_TEMPORARY_INSTALL_DIRECTORY}${prefix}")
file(GLOB pages "${root}/share/man/man*/*")
foreach(page ${pages})
  execute_process(COMMAND gzip -9nf "${page}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip ${page} failed")
  endif()
endforeach()
set(doc "${root}/share/doc/iogauge")
file(MAKE_DIRECTORY "${doc}")
file(COPY "${CPACK_IOGAUGE_PACKAGING_DIR}/copyright" DESTINATION "${doc}"
  FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
file(COPY "${CPACK_IOGAUGE_PACKAGING_DIR}/changelog" DESTINATION "${doc}"
  FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
execute_process(COMMAND gzip -9nf "${doc}/changelog" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip ${doc}/changelog failed")
endif()
