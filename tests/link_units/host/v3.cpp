// The entry is defined in a header this source compiles.
#include "v3_entry.hpp"
