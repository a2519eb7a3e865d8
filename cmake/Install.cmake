# cmake --install build --prefix P:
#   P/lib/AMDGPUPingpong.so                      the loader users name (checks the LLVM version)
#   P/lib/AMDGPUPingpong-llvm<maj>.<min>.so      the plugin proper, for that LLVM
#   P/bin/pingpong-sim ...                       the project's tools
#   P/include/pingpong/...                       headers (with the generated Version.h)
#   P/lib/cmake/AMDGPUPingpong/                  package config for find_package(AMDGPUPingpong)
#   P/share/doc/AMDGPUPingpong/                  README, LICENSE, CHANGELOG, docs
include(CMakePackageConfigHelpers)

set(PINGPONG_INSTALL_LIBDIR lib)
set(PINGPONG_INSTALL_BINDIR bin)
set(PINGPONG_INSTALL_INCLUDEDIR include)
set(PINGPONG_INSTALL_CMAKEDIR lib/cmake/AMDGPUPingpong)
set(PINGPONG_INSTALL_DOCDIR share/doc/AMDGPUPingpong)

install(TARGETS AMDGPUPingpong AMDGPUPingpongImpl
        LIBRARY DESTINATION ${PINGPONG_INSTALL_LIBDIR})
foreach(tool pingpong-sim pingpong-opt pingpong-translate)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${PINGPONG_INSTALL_BINDIR})
  endif()
endforeach()
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/pingpong
                  ${CMAKE_BINARY_DIR}/include/pingpong
        DESTINATION ${PINGPONG_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h" PATTERN "*.h.inc")

configure_package_config_file(
  ${CMAKE_SOURCE_DIR}/cmake/AMDGPUPingpongConfig.cmake.in
  ${CMAKE_BINARY_DIR}/install-package/AMDGPUPingpongConfig.cmake
  INSTALL_DESTINATION ${PINGPONG_INSTALL_CMAKEDIR}
  PATH_VARS PINGPONG_INSTALL_LIBDIR PINGPONG_INSTALL_BINDIR PINGPONG_INSTALL_INCLUDEDIR)
# 0.x: a new minor version may change options and remarks.
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/install-package/AMDGPUPingpongConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/install-package/AMDGPUPingpongConfig.cmake
              ${CMAKE_BINARY_DIR}/install-package/AMDGPUPingpongConfigVersion.cmake
        DESTINATION ${PINGPONG_INSTALL_CMAKEDIR})

install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/LICENSE
              ${CMAKE_SOURCE_DIR}/CHANGELOG.md
        DESTINATION ${PINGPONG_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${PINGPONG_INSTALL_DOCDIR}/docs
        FILES_MATCHING PATTERN "*.md" PATTERN "*.svg")
