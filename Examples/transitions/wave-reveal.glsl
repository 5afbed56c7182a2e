// A transition of Reel's own, in the gl-transitions form: the incoming picture rises behind a
// wavy edge, with a bright rim along it.
uniform float amplitude; // = 0.05
uniform float waves; // = 3.0
uniform vec3 rim; // = vec3(1.0, 0.8, 0.2)
uniform float rim_width; // = 0.02

vec4 transition(vec2 uv) {
  float edge = progress * (1.0 + 2.0 * amplitude + rim_width) - amplitude - rim_width
             + amplitude * sin((uv.x * waves + progress) * 6.2831853);
  vec4 color = uv.y < edge ? getToColor(uv) : getFromColor(uv);
  float glow = 1.0 - smoothstep(0.0, rim_width, abs(uv.y - edge));
  return vec4(mix(color.rgb, rim * color.a, glow * step(0.001, progress) * step(progress, 0.999)), color.a);
}
