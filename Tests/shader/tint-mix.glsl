// Test-only (moderngl_check.sh): colour arithmetic. A cross-fade pulled towards a saturated
// `tint` mid-way, in horizontal ripples counted from the bottom (`ripples`, an int), with the
// colours inverted when `invert` is true.
uniform vec3 tint; // = vec3(0.0, 0.0, 1.0)
uniform float strength; // = 0.5
uniform int ripples; // = 2
uniform bool invert; // = false

vec4 transition(vec2 uv) {
  vec4 c = mix(getFromColor(uv), getToColor(uv), progress);
  float ripple = 0.5 + 0.5 * cos(6.2831853 * float(ripples) * uv.y * uv.y);
  vec3 rgb = mix(c.rgb, tint, strength * sin(3.14159265 * progress) * ripple);
  if (invert) rgb = vec3(1.0) - rgb;
  return vec4(rgb, 1.0);
}
