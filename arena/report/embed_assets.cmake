# Writes OUT, a C++ file that defines arena::report::report_css(),
# replay_js() and report_js() from the files in ASSETS_DIR, so the report
# carries them inline and other modules can serve the same files.
set(text "// Generated from arena/report/assets/ by embed_assets.cmake; do not edit.\n")
string(APPEND text "#include \"arena/report/html_report.hpp\"\n\nnamespace arena::report {\n")
foreach(pair "report_css:report.css" "replay_js:replay.js" "report_js:report.js")
  string(REPLACE ":" ";" parts "${pair}")
  list(GET parts 0 function)
  list(GET parts 1 file)
  file(READ "${ASSETS_DIR}/${file}" content)
  string(FIND "${content}" ")arena_asset\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${file} holds the raw string's delimiter")
  endif()
  string(APPEND text "std::string_view ${function}() {\n    return R\"arena_asset(${content})arena_asset\";\n}\n")
endforeach()
string(APPEND text "}  // namespace arena::report\n")
file(WRITE "${OUT}.tmp" "${text}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
