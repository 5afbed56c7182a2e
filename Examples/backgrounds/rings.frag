// Shadertoy's form: mainImage(out vec4 fragColor, in vec2 fragCoord), with iTime and
// iResolution, so a shader from shadertoy.com that reads no textures runs as it is.
uniform vec3 tint; // = vec3(1.0, 0.55, 0.2)

void mainImage(out vec4 fragColor, in vec2 fragCoord) {
    vec2 uv = (fragCoord - 0.5 * iResolution.xy) / iResolution.y;
    float r = length(uv);
    float rings = 0.5 + 0.5 * cos(r * 40.0 - iTime * 4.0);
    float glow = exp(-3.0 * r);
    fragColor = vec4(tint * rings * glow + vec3(0.04, 0.02, 0.08), 1.0);
}
