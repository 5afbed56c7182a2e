/* A GLSL fragment shader run on the CPU: Mesa's llvmpipe through EGL without a display
 * (EGL_EXT_platform_device, the EGL_MESA_device_software device; else surfaceless).
 * No libGL is linked: GL's entry points come from eglGetProcAddress.
 *
 * One context per process, made current on the thread that creates it; every call must come
 * from that thread. Pictures are RGBA floats (premultiplied or not: the shader decides),
 * tightly packed, top row first; the shader sees uv (0, 0) at the bottom left. */
#ifndef REEL_SHADER_GL_H
#define REEL_SHADER_GL_H
#include <stddef.h>

/* Pins what llvmpipe may use of the CPU (SSE4.1, so no FMA contraction: the same bytes on every
 * x86-64 CPU), creates the context and makes it current. 0 on success; else -1 with the reason in err. */
int reel_gl_open(char *err, size_t errlen);

/* GL_RENDERER and GL_VERSION, for messages. */
const char *reel_gl_renderer(void);

/* Compiles and links `prelude` (the dialect's lines and declarations), then the user's source
 * after a `#line 1`, then `epilogue` (main) after a `#line 100000`, so the info log's lines
 * are the user's file's. Returns a program name > 0; 0 with the info log in err. */
unsigned reel_gl_program(const char *prelude, const char *source, const char *epilogue, char *err, size_t errlen);
void reel_gl_program_delete(unsigned program);

/* The location of a uniform, -1 when the program has none of that name (or it is unused). */
int reel_gl_uniform_location(unsigned program, const char *name);
/* The type (GL enum) and array size of active uniform `name`; 0 when it is not active. */
unsigned reel_gl_uniform_type(unsigned program, const char *name, int *size);
void reel_gl_uniform_f(unsigned program, int location, int components, const float *values);
void reel_gl_uniform_i(unsigned program, int location, int components, const int *values);

/* Uploads a w×h RGBA float picture to texture unit `unit` (0 or 1). */
int reel_gl_picture(int unit, const float *rgba, int w, int h);

/* Draws the program over a w×h float framebuffer and reads it back into out (w·h·4 floats,
 * top row first). Texture units 0 and 1 are bound to the samplers `from` and `to`. 0 on success. */
int reel_gl_draw(unsigned program, int w, int h, float *out, char *err, size_t errlen);

#endif
