#include <vector>
#include "core/json_io.hpp"
