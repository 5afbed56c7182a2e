// Cairo, Pango (PangoCairo over fontconfig), librsvg, gdk-pixbuf and fontconfig for Swift.
#ifndef REEL_CCAIRO_SHIM_H
#define REEL_CCAIRO_SHIM_H
#include <cairo.h>
#include <cairo-ft.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <librsvg/rsvg.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <fontconfig/fontconfig.h>
#endif
