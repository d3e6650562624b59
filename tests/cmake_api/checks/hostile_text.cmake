# Sets hostile_text: quotes, backslashes, a ';', and every control character
# (U+0001..U+001F, DEL) between words.
set(hostile_text "say \"hi\" \\ path C:\\x; `id` $(id)")
foreach(code RANGE 1 31)
  string(ASCII ${code} char)
  string(APPEND hostile_text "${char}w${code}")
endforeach()
string(ASCII 127 char)
string(APPEND hostile_text "${char}end")
