// An animated background in the form editly's gl layers and GLSL Sandbox use: main() writes
// gl_FragColor from gl_FragCoord (origin at the bottom left). Reel sets time (seconds since the
// clip's start), progress (0 to 1 over the clip) and resolution (pixels); the uniforms below
// take their values from the clip's params.
precision highp float;

uniform float time;
uniform vec2 resolution;
uniform vec3 deep;     // = vec3(0.05, 0.09, 0.25)
uniform vec3 crest;    // = vec3(0.30, 0.75, 0.95)
uniform float bands;   // = 5.0
uniform float speed;   // = 0.6

void main() {
    vec2 p = gl_FragCoord.xy / resolution;
    float height = 0.0;
    for (int i = 1; i <= 3; i++) {
        float f = float(i);
        height += sin(p.x * 6.2832 * f * 0.7 + time * speed * f + f * 1.3) / (f * 2.0);
    }
    float level = fract(p.y * bands + height * 0.35);
    float edge = smoothstep(0.0, 0.08, level) * (1.0 - smoothstep(0.85, 1.0, level));
    vec3 colour = mix(deep, crest, p.y * 0.8 + 0.2 * edge);
    gl_FragColor = vec4(colour, 1.0);
}
