/* See include/shader_gl.h. */
#include "shader_gl.h"

/* Prototypes only for __typeof__: the functions themselves come from eglGetProcAddress. */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GL's entry points, fetched once the context is current. */
#define GL_FUNCTIONS(X) \
    X(glGetString) X(glGetError) X(glViewport) X(glReadPixels) X(glPixelStorei) X(glGenTextures) X(glBindTexture) \
    X(glTexImage2D) X(glTexSubImage2D) X(glTexParameteri) X(glActiveTexture) X(glDrawArrays) X(glCreateShader) \
    X(glShaderSource) X(glCompileShader) X(glGetShaderiv) X(glGetShaderInfoLog) X(glCreateProgram) X(glAttachShader) \
    X(glLinkProgram) X(glGetProgramiv) X(glGetProgramInfoLog) X(glDeleteShader) X(glDeleteProgram) X(glUseProgram) \
    X(glGetUniformLocation) X(glGetActiveUniform) X(glBindAttribLocation) X(glUniform1i) X(glUniform1fv) X(glUniform2fv) \
    X(glUniform3fv) X(glUniform4fv) X(glUniform1iv) X(glUniform2iv) X(glUniform3iv) X(glUniform4iv) X(glGenBuffers) \
    X(glBindBuffer) X(glBufferData) X(glEnableVertexAttribArray) X(glVertexAttribPointer) X(glGenVertexArrays) \
    X(glBindVertexArray) X(glGenFramebuffers) X(glBindFramebuffer) X(glFramebufferRenderbuffer) \
    X(glCheckFramebufferStatus) X(glGenRenderbuffers) X(glBindRenderbuffer) X(glRenderbufferStorage)

#define DECLARE(f) static __typeof__(&f) p_##f;
GL_FUNCTIONS(DECLARE)
#undef DECLARE

static struct {
    EGLDisplay display;
    EGLContext context;
    GLuint textures[2], framebuffer, renderbuffer;
    int texture_width[2], texture_height[2], frame_width, frame_height;
    char renderer[256];
} gl;

static void say(char *err, size_t n, const char *text) {
    if (err && n) snprintf(err, n, "%s", text);
}

/* The software device (llvmpipe), so a GPU never changes the bytes; surfaceless if EGL lists no devices. */
static EGLDisplay software_display(void) {
    PFNEGLGETPLATFORMDISPLAYEXTPROC platform_display = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    PFNEGLQUERYDEVICESTRINGEXTPROC device_string = (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    if (!platform_display) return EGL_NO_DISPLAY;
    if (query_devices && device_string) {
        EGLDeviceEXT devices[16];
        EGLint count = 0;
        if (query_devices(16, devices, &count)) {
            for (EGLint i = 0; i < count; i++) {
                const char *extensions = device_string(devices[i], EGL_EXTENSIONS);
                if (extensions && strstr(extensions, "EGL_MESA_device_software"))
                    return platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
            }
        }
    }
    return platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
}

int reel_gl_open(char *err, size_t errlen) {
    if (gl.context) return 0;
    /* Read by Mesa once, at its first use: without AVX there is no FMA, and llvmpipe's
     * multiply-adds round the same on every CPU. */
    setenv("GALLIUM_OVERRIDE_CPU_CAPS", "sse4.1", 1);
    gl.display = software_display();
    EGLint major, minor;
    if (gl.display == EGL_NO_DISPLAY || !eglInitialize(gl.display, &major, &minor)) {
        say(err, errlen, "EGL found no software renderer (install libegl1, libegl-mesa0 and libgl1-mesa-dri)");
        return -1;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        say(err, errlen, "EGL cannot bind OpenGL");
        return -1;
    }
    const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                 EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext context = eglCreateContext(gl.display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
    if (context == EGL_NO_CONTEXT || !eglMakeCurrent(gl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
        say(err, errlen, "EGL cannot make an OpenGL 3.3 core context without a surface");
        return -1;
    }
#define LOAD(f) \
    if (!(p_##f = (__typeof__(p_##f))eglGetProcAddress(#f))) { say(err, errlen, "OpenGL lacks " #f); return -1; }
    GL_FUNCTIONS(LOAD)
#undef LOAD
    snprintf(gl.renderer, sizeof gl.renderer, "%s, OpenGL %s", (const char *)p_glGetString(GL_RENDERER),
             (const char *)p_glGetString(GL_VERSION));
    if (!strstr(gl.renderer, "llvmpipe")) {
        snprintf(err, errlen, "the renderer is %s, not Mesa's llvmpipe", gl.renderer);
        return -1;
    }
    /* One triangle covering the frame. */
    static const float corners[6] = {-1, -1, 3, -1, -1, 3};
    GLuint array, buffer;
    p_glGenVertexArrays(1, &array);
    p_glBindVertexArray(array);
    p_glGenBuffers(1, &buffer);
    p_glBindBuffer(GL_ARRAY_BUFFER, buffer);
    p_glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
    p_glEnableVertexAttribArray(0);
    p_glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    p_glGenTextures(2, gl.textures);
    for (int i = 0; i < 2; i++) {
        p_glActiveTexture(GL_TEXTURE0 + i);
        p_glBindTexture(GL_TEXTURE_2D, gl.textures[i]);
        p_glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        p_glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        p_glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        p_glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
    p_glGenFramebuffers(1, &gl.framebuffer);
    p_glBindFramebuffer(GL_FRAMEBUFFER, gl.framebuffer);
    p_glGenRenderbuffers(1, &gl.renderbuffer);
    p_glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    p_glPixelStorei(GL_PACK_ALIGNMENT, 4);
    gl.context = context;
    return 0;
}

const char *reel_gl_renderer(void) { return gl.renderer; }

/* The vertex stage: uv from the bottom left, with y flipped so the first row read back is the top. */
static const char *vertex_source =
    "#version 330 core\n"
    "in vec2 corner;\n"
    "out vec2 reel_uv;\n"
    "void main() { reel_uv = 0.5 * (corner + 1.0); gl_Position = vec4(corner.x, -corner.y, 0.0, 1.0); }\n";

static GLuint compiled(GLenum stage, const char *const *parts, int count, char *err, size_t errlen) {
    GLuint shader = p_glCreateShader(stage);
    GLint ok = 0;
    p_glShaderSource(shader, count, parts, NULL);
    p_glCompileShader(shader);
    p_glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        if (err && errlen) {
            err[0] = 0;
            p_glGetShaderInfoLog(shader, (GLsizei)errlen, NULL, err);
        }
        p_glDeleteShader(shader);
        return 0;
    }
    return shader;
}

unsigned reel_gl_program(const char *prelude, const char *source, const char *epilogue, char *err, size_t errlen) {
    const char *vertex[] = {vertex_source};
    const char *fragment[] = {prelude, "\n#line 1\n", source, "\n#line 100000\n", epilogue};
    GLuint vs = compiled(GL_VERTEX_SHADER, vertex, 1, err, errlen);
    if (!vs) return 0;
    GLuint fs = compiled(GL_FRAGMENT_SHADER, fragment, 5, err, errlen);
    if (!fs) {
        p_glDeleteShader(vs);
        return 0;
    }
    GLuint program = p_glCreateProgram();
    p_glAttachShader(program, vs);
    p_glAttachShader(program, fs);
    p_glBindAttribLocation(program, 0, "corner");
    p_glLinkProgram(program);
    p_glDeleteShader(vs);
    p_glDeleteShader(fs);
    GLint ok = 0;
    p_glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        if (err && errlen) p_glGetProgramInfoLog(program, (GLsizei)errlen, NULL, err);
        p_glDeleteProgram(program);
        return 0;
    }
    p_glUseProgram(program);
    GLint from = p_glGetUniformLocation(program, "from"), to = p_glGetUniformLocation(program, "to");
    if (from >= 0) p_glUniform1i(from, 0);
    if (to >= 0) p_glUniform1i(to, 1);
    return program;
}

void reel_gl_program_delete(unsigned program) { p_glDeleteProgram(program); }

int reel_gl_uniform_location(unsigned program, const char *name) { return p_glGetUniformLocation(program, name); }

unsigned reel_gl_uniform_type(unsigned program, const char *name, int *size) {
    GLint count = 0;
    p_glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &count);
    char found[256];
    for (GLint i = 0; i < count; i++) {
        GLint n = 0;
        GLenum type = 0;
        p_glGetActiveUniform(program, (GLuint)i, sizeof found, NULL, &n, &type, found);
        size_t length = strlen(name);
        /* An array is listed as name[0]. */
        if (!strcmp(found, name) || (!strncmp(found, name, length) && !strcmp(found + length, "[0]"))) {
            if (size) *size = n;
            return type;
        }
    }
    return 0;
}

void reel_gl_uniform_f(unsigned program, int location, int components, const float *values) {
    p_glUseProgram(program);
    switch (components) {
    case 1: p_glUniform1fv(location, 1, values); break;
    case 2: p_glUniform2fv(location, 1, values); break;
    case 3: p_glUniform3fv(location, 1, values); break;
    default: p_glUniform4fv(location, 1, values); break;
    }
}

void reel_gl_uniform_i(unsigned program, int location, int components, const int *values) {
    p_glUseProgram(program);
    switch (components) {
    case 1: p_glUniform1iv(location, 1, values); break;
    case 2: p_glUniform2iv(location, 1, values); break;
    case 3: p_glUniform3iv(location, 1, values); break;
    default: p_glUniform4iv(location, 1, values); break;
    }
}

int reel_gl_picture(int unit, const float *rgba, int w, int h) {
    if (unit < 0 || unit > 1) return -1;
    p_glActiveTexture(GL_TEXTURE0 + unit);
    p_glBindTexture(GL_TEXTURE_2D, gl.textures[unit]);
    if (gl.texture_width[unit] == w && gl.texture_height[unit] == h) {
        p_glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_FLOAT, rgba);
    } else {
        p_glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, w, h, 0, GL_RGBA, GL_FLOAT, rgba);
        gl.texture_width[unit] = w;
        gl.texture_height[unit] = h;
    }
    return p_glGetError() == GL_NO_ERROR ? 0 : -1;
}

int reel_gl_draw(unsigned program, int w, int h, float *out, char *err, size_t errlen) {
    if (gl.frame_width != w || gl.frame_height != h) {
        p_glBindRenderbuffer(GL_RENDERBUFFER, gl.renderbuffer);
        p_glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA32F, w, h);
        p_glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, gl.renderbuffer);
        if (p_glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            say(err, errlen, "OpenGL cannot draw into a float frame of this size");
            return -1;
        }
        gl.frame_width = w;
        gl.frame_height = h;
    }
    p_glUseProgram(program);
    p_glViewport(0, 0, w, h);
    p_glDrawArrays(GL_TRIANGLES, 0, 3);
    p_glReadPixels(0, 0, w, h, GL_RGBA, GL_FLOAT, out);
    GLenum status = p_glGetError();
    if (status != GL_NO_ERROR) {
        if (err && errlen) snprintf(err, errlen, "OpenGL error 0x%04x while drawing", status);
        return -1;
    }
    return 0;
}
