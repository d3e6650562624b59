#include "kopt/decide/gate.hpp"
