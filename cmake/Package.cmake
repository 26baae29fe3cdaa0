# Packages (CPack): `cmake --build build --target package` makes a .deb
# (dependencies from dpkg-shlibdeps: libinih, liburing, libaio, libnuma and
# the rest as this build links them), `--target package_source` a source
# tarball without build folders or git's.  tests/cli/package.py builds,
# installs, runs and removes the .deb and runs lintian on it.
set(IOGAUGE_PACKAGE_CONTACT
  "Seed c2cd6c4f maintainers <maintainers@users.noreply.a-seed-c2cd6c4f.example>"
  CACHE STRING "The .deb's Maintainer: name <address>")

set(CPACK_PACKAGE_NAME iogauge)
set(CPACK_PACKAGE_VENDOR "iogauge")
set(CPACK_PACKAGE_CONTACT "${IOGAUGE_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "I/O workload generator that runs fio job files and SQLIO command lines")
set(CPACK_PACKAGE_DESCRIPTION "iogauge reads fio 3.33 job files and fio-style command lines
unchanged, and SQLIO command lines, drives them through real kernel I/O
paths (psync, libaio, io_uring, mmap and more), and reports throughput
and latency as SQLIO does, with percentiles, and in fio's JSON and terse
formats.  It comes with recipes: the default job, CrystalDiskMark's
presets, database mixes and SQLIO's sweeps (iogauge recipes).")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, fio")
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
  OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
# Debian's policy in the staging folder: man pages and the changelog
# gzip'ed (-9n), the copyright file beside it.
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/DebStage.cmake)
set(CPACK_IOGAUGE_PACKAGING_DIR ${PROJECT_SOURCE_DIR}/packaging/deb)

set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_PACKAGE_FILE_NAME iogauge-${PROJECT_VERSION})
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git" "/build[^/]*/" "/_CPack_Packages/" "/\\\\.cache/"
  "/__pycache__/" "/Testing/")
include(CPack)
