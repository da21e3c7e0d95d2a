#pragma once
//! The quote's engine check moved to the study stage (study/quote_check.h); this name stays until
//! reports/quote_render.h includes the new one.
#include "study/quote_check.h"
