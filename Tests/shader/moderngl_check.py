"""Checks Reel's GLSL transitions against moderngl (an independent OpenGL wrapper, on Mesa).

Usage: moderngl_check.py REEL_BINARY WORK_DIR
For each test-only shader in this folder (SHADERS below), a project of two lossless 640x360
clips joined by the shader for the whole 0.8 s timeline (20 frames at 25 fps: frame k shows
source frame k of both at progress k / 20) is rendered by Reel to a PNG sequence. moderngl
renders frames 5, 10 and 15 (25, 50, 75 %) from the same source frames with the gl-transitions
wrapper written here: uv from the bottom left, pictures uploaded bottom row first, ratio =
width / height, the uniforms' `// = value` defaults read here and the project's params over them.

Like with like: Reel mixes on its compositor's canvas (the sources' Y'CbCr 4:2:0 read into
R'G'B' floats, the result stored as 4:2:0 again) and its PNGs are that 4:2:0 frame converted by
libswscale. So moderngl's pictures are the source frames' planes read the same way (chroma
sited at each 2x2 block's centre, bilinear; BT.709 limited range), its result is reduced to
4:2:0 the same way (the block's mean), and both go to RGB through the same libswscale
conversion. The two must agree at PSNR >= 45 dB on every checked frame. Deliberately wrong
wrappers (uv upside down or mirrored, ratio inverted, the pictures upside down or as BGR, the
progress a frame late, the defaults instead of the params) must fail the same test, so it can
fail. Exits 1 on any failure.
"""
import json
import math
import os
import pathlib
import re
import shutil
import subprocess
import sys

import moderngl
import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
WIDTH, HEIGHT, FPS, FRAMES = 640, 360, 25, 20  # the transition lasts the whole 0.8 s timeline
CHECKED = (5, 10, 15)  # 25, 50 and 75 % of the transition
THRESHOLD = 45.0

# Each shader, the params the project sets (the others keep their defaults) and the wrong
# wrappers that must fail with it.
SHADERS = {
    "lean-wipe.glsl": ({"origin": [0.15, 0.25], "softness": 0.05}, ["flip-y", "mirror-x", "pictures-upside-down", "a-frame-late", "defaults"]),
    "round-iris.glsl": ({"center": [0.3, 0.65], "ring": "#ff800099", "ring_width": 0.02}, ["flip-y", "ratio-inverted", "defaults"]),
    "tint-mix.glsl": ({"tint": "#ff0040", "strength": 0.7, "ripples": 3, "invert": True}, ["flip-y", "bgr", "defaults"]),
    "ripple-shift.glsl": ({"amplitude": 0.05, "drift": [0.08, -0.05]}, ["flip-y", "ratio-inverted"]),
}

# Reel's PNG output: its Y'CbCr 4:2:0 frame (BT.709, limited range) to RGB with libswscale,
# bicubic, bit-exact, chroma interpolated at full resolution (docs/stills.md).
TO_RGB = ("scale=in_color_matrix=bt709:in_range=tv:flags=bicubic+accurate_rnd+bitexact+full_chroma_int+full_chroma_inp,"
          "format=rgb24")


def run(*args, **kwargs):
    result = subprocess.run(list(map(str, args)), capture_output=True, **kwargs)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, args))} failed ({result.returncode}): {result.stderr.decode(errors='replace').strip()}")
    return result.stdout


def ffmpeg(*args, **kwargs):
    return run("ffmpeg", "-nostdin", "-loglevel", "error", *args, **kwargs)


def make_sources(work):
    """Two distinct, asymmetric moving clips, lossless (FFV1) 4:2:0 BT.709 limited range: Reel
    takes such frames into its compositor as they are. They are drawn at half size and scaled
    up, their RGB kept within 10…90 %, so no 4:2:0 interpolation takes them out of gamut (where
    Reel's pictures would hold values beyond 0…1 and 8-bit textures cannot)."""
    tags = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
    to_yuv = (f"scale={WIDTH}:{HEIGHT}:flags=bicubic+accurate_rnd+bitexact,"
              "colorlevels=romin=0.1:gomin=0.1:bomin=0.1:romax=0.9:gomax=0.9:bomax=0.9,"
              "scale=out_color_matrix=bt709:out_range=tv:flags=bicubic+accurate_rnd+bitexact,format=yuv420p")
    sources = {
        "a.mkv": "testsrc2=size=320x180:rate=25",
        "b.mkv": "gradients=size=320x180:rate=25:c0=0xff3030:c1=0x20e040:c2=0x3040ff:nb_colors=3:x0=20:y0=10:x1=300:y1=170:"
                 "speed=0.02:seed=7,drawbox=x=40:y=20:w=60:h=30:color=0xffff00:t=fill",
    }
    for name, graph in sources.items():
        ffmpeg("-f", "lavfi", "-i", graph, "-frames:v", FRAMES, "-vf", to_yuv, "-c:v", "ffv1", *tags, work / name)
    return list(sources)


# 4:2:0 <-> 4:4:4 as Reel's compositor does it and as JPEG and MPEG-1 site chroma: each chroma
# sample at the centre of its 2x2 block, read bilinearly (edges clamped), made as the block's
# mean. Read with libswscale instead (its own filters and siting), testsrc2's frames differ from
# Reel's by up to 36 levels at colour edges (39-47 dB): that is no part of the GLSL path.
KR, KB = 0.2126, 0.0722
KG = 1 - KR - KB


def yuv420_frames(path):
    """The checked frames of `path` (in CHECKED's order): their Y, Cb and Cr planes as stored."""
    chosen = "+".join(f"eq(n,{k})" for k in CHECKED)
    raw = np.frombuffer(ffmpeg("-i", path, "-vf", f"select='{chosen}'", "-fps_mode", "passthrough",
                               "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"), np.uint8)
    frames = raw.reshape(len(CHECKED), HEIGHT * WIDTH * 3 // 2)
    luma = frames[:, :HEIGHT * WIDTH].reshape(-1, HEIGHT, WIDTH)
    cb = frames[:, HEIGHT * WIDTH:HEIGHT * WIDTH * 5 // 4].reshape(-1, HEIGHT // 2, WIDTH // 2)
    cr = frames[:, HEIGHT * WIDTH * 5 // 4:].reshape(-1, HEIGHT // 2, WIDTH // 2)
    return luma, cb, cr


def upsampled(plane):
    """A chroma plane (frames, h/2, w/2) at full size, bilinearly about the blocks' centres."""
    def taps(n):
        position = np.clip((np.arange(2 * n) + 0.5) / 2 - 0.5, 0, n - 1)
        low = np.floor(position).astype(int)
        return low, np.minimum(low + 1, n - 1), (position - low).astype(np.float32)
    (y0, y1, fy), (x0, x1, fx) = taps(plane.shape[1]), taps(plane.shape[2])
    p = plane.astype(np.float32)
    rows = p[:, y0] * (1 - fy)[None, :, None] + p[:, y1] * fy[None, :, None]
    return rows[:, :, x0] * (1 - fx) + rows[:, :, x1] * fx


def decoded(path):
    """The checked frames of `path` as R'G'B' floats in 0…1, top row first: the pictures moderngl
    takes, by frame number."""
    luma, cb, cr = yuv420_frames(path)
    y = (luma.astype(np.float32) - 16) / 219
    u, v = (upsampled(cb) - 128) / 224, (upsampled(cr) - 128) / 224
    r, b = y + 2 * (1 - KR) * v, y + 2 * (1 - KB) * u
    g = (y - KR * r - KB * b) / KG
    return dict(zip(CHECKED, np.clip(np.stack([r, g, b], axis=-1), 0, 1)))


def png_rgb(path):
    return np.frombuffer(ffmpeg("-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"), np.uint8).reshape(HEIGHT, WIDTH, 3)


def yuv420(rgb):
    """moderngl's R'G'B' floats (one frame) as Reel's compositor stores a frame after the shader:
    8-bit Y'CbCr 4:2:0, BT.709, limited range, chroma the mean of each 2x2 block."""
    rgb = np.clip(rgb, 0, 1).astype(np.float64)[None]
    y = KR * rgb[..., 0] + KG * rgb[..., 1] + KB * rgb[..., 2]
    cb = (rgb[..., 2] - y) / (2 * (1 - KB))
    cr = (rgb[..., 0] - y) / (2 * (1 - KR))
    def block_mean(plane):
        n = plane.shape[0]
        return plane.reshape(n, HEIGHT // 2, 2, WIDTH // 2, 2).mean(axis=(2, 4))
    planes = [16 + 219 * y, 128 + 224 * block_mean(cb), 128 + 224 * block_mean(cr)]
    return np.concatenate([np.clip(np.round(p), 0, 255).astype(np.uint8).reshape(-1) for p in planes])


def compare_like_with_like(frames):
    """yuv420 frames to RGB with libswscale exactly as Reel's PNG output converts its own (TO_RGB)."""
    raw = ffmpeg("-f", "rawvideo", "-pix_fmt", "yuv420p", "-color_range", "tv", "-colorspace", "bt709", "-s", f"{WIDTH}x{HEIGHT}",
                 "-i", "-", "-vf", TO_RGB, "-f", "rawvideo", "-", input=b"".join(f.tobytes() for f in frames))
    return np.frombuffer(raw, np.uint8).reshape(-1, HEIGHT, WIDTH, 3)


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return math.inf if mse == 0 else 10 * math.log10(255 ** 2 / mse)


# --- the uniforms, read independently of Reel's parser ---

UNIFORM = re.compile(r"^\s*uniform\s+(float|int|bool|vec2|vec3|vec4)\s+(\w+)\s*;\s*(?://\s*=\s*(.+?)\s*;?\s*)?$")
SIZES = {"float": 1, "int": 1, "bool": 1, "vec2": 2, "vec3": 3, "vec4": 4}


def uniform_defaults(source):
    found = {}
    for line in source.splitlines():
        m = UNIFORM.match(line)
        if not m:
            continue
        kind, name, default = m.groups()
        n = SIZES[kind]
        if default is None:
            values = [0.0] * n
        else:
            inner = re.fullmatch(r"\w+\((.*)\)", default)
            parts = [p.strip() for p in (inner.group(1) if inner else default).split(",")]
            values = [1.0 if p == "true" else 0.0 if p == "false" else float(p.rstrip("f")) for p in parts]
            values = values * n if len(values) == 1 else values
        found[name] = (kind, values)
    return found


def hex_colour(text, n):
    digits = text.lstrip("#")
    channels = [int(digits[i:i + 2], 16) / 255 for i in range(0, len(digits), 2)]
    return (channels + [1.0])[:n]


def uniform_values(source, params):
    values = uniform_defaults(source)
    for name, value in params.items():
        kind, _ = values[name]
        if isinstance(value, str):
            numbers = hex_colour(value, SIZES[kind])
        elif isinstance(value, list):
            numbers = [float(v) for v in value]
        else:
            numbers = [float(value)]
        values[name] = (kind, numbers)
    return values


# --- moderngl, with the gl-transitions wrapper ---

VERTEX = """#version 330
in vec2 corner;
out vec2 frame_uv;
void main() { frame_uv = corner * 0.5 + 0.5; gl_Position = vec4(corner, 0.0, 1.0); }
"""

# The wrapper: uv (0, 0) at the bottom left, the pictures uploaded bottom row first (so uv is the
# texture coordinate). A wrong variant turns the uv the transition gets (and its lookups with it,
# so the pictures stay upright and only the shader's geometry is wrong).
FRAGMENT = """#version 330
#define texture2D texture
uniform sampler2D from, to;
uniform float progress;
uniform float ratio;
in vec2 frame_uv;
out vec4 frame_color;
vec2 wrapped(vec2 uv) {{ return {turn}; }}
vec4 getFromColor(vec2 uv) {{ return texture(from, wrapped(uv)); }}
vec4 getToColor(vec2 uv) {{ return texture(to, wrapped(uv)); }}
{source}
void main() {{ frame_color = transition(wrapped(frame_uv)); }}
"""
TURNS = {"flip-y": "vec2(uv.x, 1.0 - uv.y)", "mirror-x": "vec2(1.0 - uv.x, uv.y)"}


class ModernGL:
    def __init__(self):
        self.ctx = moderngl.create_standalone_context(backend="egl", require=330)
        self.target = self.ctx.framebuffer(color_attachments=[self.ctx.renderbuffer((WIDTH, HEIGHT), 4, dtype="f4")])
        self.corners = self.ctx.buffer(np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32).tobytes())
        self.textures = []
        for _ in range(2):
            texture = self.ctx.texture((WIDTH, HEIGHT), 3, dtype="f4")
            texture.filter = (moderngl.LINEAR, moderngl.LINEAR)
            texture.repeat_x = texture.repeat_y = False  # clamped to the edge
            self.textures.append(texture)

    def renderer(self):
        return f"{self.ctx.info['GL_RENDERER']}, OpenGL {self.ctx.info['GL_VERSION']}"

    def program(self, source, variant):
        turn = TURNS.get(variant, "uv")
        program = self.ctx.program(vertex_shader=VERTEX, fragment_shader=FRAGMENT.format(turn=turn, source=source))
        return program, self.ctx.vertex_array(program, [(self.corners, "2f", "corner")])

    def render(self, program, quad, uniforms, progress, ratio, outgoing, incoming):
        for unit, picture in enumerate((outgoing, incoming)):
            self.textures[unit].write(np.ascontiguousarray(picture[::-1]).tobytes())  # bottom row first
            self.textures[unit].use(unit)
        for name, unit in (("from", 0), ("to", 1)):
            if name in program:
                program[name].value = unit
        for name, value in (("progress", progress), ("ratio", ratio)):
            if name in program:
                program[name].value = value
        for name, (kind, values) in uniforms.items():
            if name not in program:
                continue
            if kind == "bool":
                program[name].value = bool(values[0])
            elif kind == "int":
                program[name].value = int(values[0])
            else:
                program[name].value = values[0] if len(values) == 1 else tuple(values)
        self.target.use()
        self.ctx.viewport = (0, 0, WIDTH, HEIGHT)
        quad.render(moderngl.TRIANGLE_STRIP)
        rgba = np.frombuffer(self.target.read(components=4, dtype="f4"), np.float32).reshape(HEIGHT, WIDTH, 4)
        return rgba[::-1, :, :3]  # top row first


def wrong_pictures(variant, picture):
    """The pictures as a wrong variant hands them over: upside down, or with red and blue swapped."""
    if variant == "pictures-upside-down":
        return picture[::-1]
    return picture[..., ::-1] if variant == "bgr" else picture


# --- Reel ---

def start_reel(reel, work, shader, params, sources):
    """Starts Reel rendering the shader's project to a PNG sequence; returns the process and the folder."""
    folder = work / shader.removesuffix(".glsl")
    folder.mkdir()
    shutil.copy(HERE / shader, folder / shader)
    for name in sources:
        (folder / name).symlink_to(work / name)
    duration = f"{FRAMES}f"
    # JSON is YAML: the params written exactly as the moderngl side reads them.
    project = {
        "reel": 1,
        "output": {"path": "frames/f%04d.png", "size": [WIDTH, HEIGHT], "fps": FPS},
        "media": {"a": sources[0], "b": sources[1]},
        "video": [{"clips": [
            {"media": "a", "from": "0s", "duration": duration},
            {"transition": {"glsl": shader, "params": params}, "duration": duration, "ease": "linear"},
            {"media": "b", "from": "0s", "duration": duration},
        ]}],
    }
    (folder / "project.yaml").write_text(json.dumps(project, indent=2) + "\n")
    process = subprocess.Popen([reel, "render", str(folder / "project.yaml")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, "REEL_CACHE_DIR": str(folder / "cache")})
    return process, folder


def reel_frames(process, folder):
    out, err = process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"reel render {folder / 'project.yaml'} failed ({process.returncode}): {err.decode(errors='replace').strip()}")
    # Frame n is file n + 1 of the pattern.
    return {k: png_rgb(folder / "frames" / f"f{k + 1:04d}.png") for k in CHECKED}


def main():
    reel, work = sys.argv[1], pathlib.Path(sys.argv[2])
    sources = make_sources(work)
    renders = {shader: start_reel(reel, work, shader, params, sources) for shader, (params, _) in SHADERS.items()}
    pictures = [decoded(work / name) for name in sources]
    gl = ModernGL()
    print(f"moderngl {moderngl.__version__} on {gl.renderer()}; Reel {reel}")
    runs, drawn = [], []
    for shader, (params, wrong) in SHADERS.items():
        source = (HERE / shader).read_text()
        for variant in ["right"] + wrong:
            program, quad = gl.program(source, variant)
            uniforms = uniform_values(source, {} if variant == "defaults" else params)
            ratio = HEIGHT / WIDTH if variant == "ratio-inverted" else WIDTH / HEIGHT
            # Frame k of the timeline shows source frame k of both clips at progress k / FRAMES.
            for k in CHECKED:
                progress = (k + (variant == "a-frame-late")) / FRAMES
                drawn.append(yuv420(gl.render(program, quad, uniforms, progress, ratio, *(wrong_pictures(variant, p[k]) for p in pictures))))
            runs.append((shader, variant))
            program.release()
            quad.release()
    converted = iter(compare_like_with_like(drawn))
    reel_rgb = {shader: reel_frames(*renders[shader]) for shader in SHADERS}
    failures = []
    for shader, variant in runs:
        figures = [psnr(reel_rgb[shader][k], next(converted)) for k in CHECKED]
        text = "  ".join(f"{100 * k // FRAMES}%: {f:6.2f} dB" for k, f in zip(CHECKED, figures))
        if variant == "right":
            ok = all(f >= THRESHOLD for f in figures)
            print(f"{'ok  ' if ok else 'FAIL'} {shader:18} {text}")
            if not ok:
                failures.append(f"{shader}: Reel and moderngl disagree (PSNR below {THRESHOLD} dB)")
        else:
            ok = any(f < THRESHOLD for f in figures)
            print(f"{'ok  ' if ok else 'FAIL'} {shader:18} {text}  (wrong on purpose: {variant}; must fail, a frame below {THRESHOLD} dB)")
            if not ok:
                failures.append(f"{shader}: the wrong variant {variant} was not caught")
    if failures:
        print("\n".join(["error: the GLSL check failed:"] + failures), file=sys.stderr)
        sys.exit(1)
    print(f"Reel's GLSL path agrees with moderngl on {len(SHADERS)} shaders, and every wrong variant is caught.")


if __name__ == "__main__":
    main()
