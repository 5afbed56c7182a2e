// Cairo, Pango (PangoCairo), librsvg and fontconfig for Swift.
#ifndef REEL_CCAIRO_SHIM_H
#define REEL_CCAIRO_SHIM_H
#include <cairo.h>
#include <pango/pangocairo.h>
#include <librsvg/rsvg.h>
#include <fontconfig/fontconfig.h>
#endif
