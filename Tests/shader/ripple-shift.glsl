// Test-only (moderngl_check.sh): sampling. Both pictures are read at displaced, rippling uv
// (partly outside 0…1, where the edge pixels repeat), and cross-fade along a slanted front.
uniform float amplitude; // = 0.03
uniform float frequency; // = 12.0
uniform vec2 drift; // = vec2(0.0, 0.1)

vec4 transition(vec2 uv) {
  vec2 wave = amplitude * vec2(sin(uv.y * frequency + 6.2831853 * progress), cos(uv.x * frequency * ratio));
  vec4 outgoing = getFromColor(uv + wave * progress - drift * progress);
  vec4 incoming = getToColor(uv - wave * (1.0 - progress) + drift * (1.0 - progress));
  return mix(outgoing, incoming, smoothstep(0.2, 0.8, progress + 0.3 * (uv.x - uv.y)));
}
