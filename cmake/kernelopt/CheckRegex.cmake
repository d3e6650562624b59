# cmake -DREGEX=<regex> -P CheckRegex.cmake: fails, with CMake's own message,
# when <regex> does not compile in CMake's regular-expression engine, the
# one CTest's PASS_REGULAR_EXPRESSION uses. A bad regex stops whatever
# compiles it, so the configure asks a process of its own (Parse.cmake).
string(REGEX MATCH "${REGEX}" _ "")
