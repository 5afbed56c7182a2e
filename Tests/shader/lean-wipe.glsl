// Test-only (moderngl_check.sh): orientation. A soft wipe that starts at `origin` and leans
// (x counts more than y), with both pictures read off their place by `shift`: a picture or a
// uv upside down, or left and right swapped, moves every edge.
uniform vec2 origin; // = vec2(0.0, 0.0)
uniform vec2 shift; // = vec2(0.05, -0.02)
uniform float softness; // = 0.03

vec4 transition(vec2 uv) {
  float reach = dot(uv - origin, vec2(0.7, 0.3));
  float edge = progress * 1.3 - 0.15;
  float keep = smoothstep(edge - softness, edge + softness, reach);
  vec4 outgoing = getFromColor(uv + shift * progress);
  vec4 incoming = getToColor(uv - shift.yx * (1.0 - progress));
  return mix(incoming, outgoing, keep);
}
