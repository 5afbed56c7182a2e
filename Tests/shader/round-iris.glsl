// Test-only (moderngl_check.sh): the aspect ratio. The incoming picture opens in a circle
// about `center`, its radius in frame heights, so it is round only if x is scaled by `ratio`;
// a ring of the colour `ring` (its alpha how strongly) runs along the edge.
uniform vec2 center; // = vec2(0.5, 0.5)
uniform float smoothness; // = 0.02
uniform vec4 ring; // = vec4(1.0, 1.0, 1.0, 1.0)
uniform float ring_width; // = 0.025

vec4 transition(vec2 uv) {
  float dist = length((uv - center) * vec2(ratio, 1.0));
  float radius = progress * 0.9;
  vec4 c = mix(getToColor(uv), getFromColor(uv), smoothstep(radius - smoothness, radius + smoothness, dist));
  float band = 1.0 - smoothstep(ring_width, ring_width + smoothness, abs(dist - radius));
  return vec4(mix(c.rgb, ring.rgb, band * ring.a * step(0.001, progress)), 1.0);
}
