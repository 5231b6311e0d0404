// retromodel-render: one shader module for both animation paths.
//
// Keyframe path (vs_morph): pose A and pose B arrive as two vertex buffers (slices of one
// buffer holding every pose of the mesh), the vertex shader blends positions and normals by
// `globals.params.x`. Skeletal path (vs_skin): bind-pose vertices with up to four joint
// influences, skinned by the joint matrices of the current frame (a storage buffer). Meshes
// with a vertex of more than four influences use vs_skin_all, which loops over every
// influence of the vertex, read from a second storage buffer by vertex index.
// Positions are in the model's Z-up space; `globals.model` is the Z-up -> Y-up rotation.

struct Globals {
    view_proj: mat4x4<f32>,
    model: mat4x4<f32>,
    // xyz: unit direction towards the light (world space), w: ambient term.
    light: vec4<f32>,
    // x: blend factor, y: diffuse strength, z: wireframe depth pull, w: unused.
    params: vec4<f32>,
    wire_color: vec4<f32>,
};

@group(0) @binding(0) var<uniform> globals: Globals;
@group(1) @binding(0) var skin_texture: texture_2d<f32>;
@group(1) @binding(1) var fullbright_texture: texture_2d<f32>;
@group(1) @binding(2) var skin_sampler: sampler;
@group(2) @binding(0) var<storage, read> joints: array<mat4x4<f32>>;
// vs_skin_all only: per vertex `(start, count)` at the vertex's index, then the
// `(joint, bitcast<u32>(weight))` pairs that the starts point at, in the same array.
@group(2) @binding(1) var<storage, read> influences: array<vec2<u32>>;

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) uv: vec2<f32>,
};

fn finish(position: vec3<f32>, normal: vec3<f32>, uv: vec2<f32>) -> VsOut {
    var out: VsOut;
    let world = globals.model * vec4<f32>(position, 1.0);
    out.clip = globals.view_proj * world;
    out.normal = (globals.model * vec4<f32>(normal, 0.0)).xyz;
    out.uv = uv;
    return out;
}

fn morph(pos_a: vec3<f32>, nrm_a: vec3<f32>, pos_b: vec3<f32>, nrm_b: vec3<f32>) -> array<vec3<f32>, 2> {
    let t = globals.params.x;
    return array<vec3<f32>, 2>(mix(pos_a, pos_b, t), mix(nrm_a, nrm_b, t));
}

@vertex
fn vs_morph(
    @location(0) uv: vec2<f32>,
    @location(1) pos_a: vec3<f32>,
    @location(2) nrm_a: vec3<f32>,
    @location(3) pos_b: vec3<f32>,
    @location(4) nrm_b: vec3<f32>,
) -> VsOut {
    let m = morph(pos_a, nrm_a, pos_b, nrm_b);
    return finish(m[0], m[1], uv);
}

@vertex
fn vs_morph_wire(
    @location(0) uv: vec2<f32>,
    @location(1) pos_a: vec3<f32>,
    @location(2) nrm_a: vec3<f32>,
    @location(3) pos_b: vec3<f32>,
    @location(4) nrm_b: vec3<f32>,
) -> VsOut {
    let m = morph(pos_a, nrm_a, pos_b, nrm_b);
    var out = finish(m[0], m[1], uv);
    out.clip.z = out.clip.z - globals.params.z * out.clip.w;
    return out;
}

fn skin(position: vec3<f32>, normal: vec3<f32>, joint: vec4<u32>, weight: vec4<f32>) -> array<vec3<f32>, 2> {
    var p = vec3<f32>(0.0);
    var n = vec3<f32>(0.0);
    for (var i = 0u; i < 4u; i = i + 1u) {
        let w = weight[i];
        if (w != 0.0) {
            let m = joints[joint[i]];
            p = p + w * (m * vec4<f32>(position, 1.0)).xyz;
            n = n + w * (m * vec4<f32>(normal, 0.0)).xyz;
        }
    }
    return array<vec3<f32>, 2>(p, n);
}

@vertex
fn vs_skin(
    @location(0) uv: vec2<f32>,
    @location(1) position: vec3<f32>,
    @location(2) normal: vec3<f32>,
    @location(5) joint: vec4<u32>,
    @location(6) weight: vec4<f32>,
) -> VsOut {
    let s = skin(position, normal, joint, weight);
    return finish(s[0], s[1], uv);
}

@vertex
fn vs_skin_wire(
    @location(0) uv: vec2<f32>,
    @location(1) position: vec3<f32>,
    @location(2) normal: vec3<f32>,
    @location(5) joint: vec4<u32>,
    @location(6) weight: vec4<f32>,
) -> VsOut {
    let s = skin(position, normal, joint, weight);
    var out = finish(s[0], s[1], uv);
    out.clip.z = out.clip.z - globals.params.z * out.clip.w;
    return out;
}

fn skin_all(vertex: u32, position: vec3<f32>, normal: vec3<f32>) -> array<vec3<f32>, 2> {
    let range = influences[vertex];
    var p = vec3<f32>(0.0);
    var n = vec3<f32>(0.0);
    for (var i = 0u; i < range.y; i = i + 1u) {
        let e = influences[range.x + i];
        let w = bitcast<f32>(e.y);
        let m = joints[e.x];
        p = p + w * (m * vec4<f32>(position, 1.0)).xyz;
        n = n + w * (m * vec4<f32>(normal, 0.0)).xyz;
    }
    return array<vec3<f32>, 2>(p, n);
}

@vertex
fn vs_skin_all(
    @builtin(vertex_index) vertex: u32,
    @location(0) uv: vec2<f32>,
    @location(1) position: vec3<f32>,
    @location(2) normal: vec3<f32>,
) -> VsOut {
    let s = skin_all(vertex, position, normal);
    return finish(s[0], s[1], uv);
}

@vertex
fn vs_skin_all_wire(
    @builtin(vertex_index) vertex: u32,
    @location(0) uv: vec2<f32>,
    @location(1) position: vec3<f32>,
    @location(2) normal: vec3<f32>,
) -> VsOut {
    let s = skin_all(vertex, position, normal);
    var out = finish(s[0], s[1], uv);
    out.clip.z = out.clip.z - globals.params.z * out.clip.w;
    return out;
}

@fragment
fn fs_shaded(in: VsOut) -> @location(0) vec4<f32> {
    // Both samples first: texture sampling must stay in uniform control flow.
    let base = textureSample(skin_texture, skin_sampler, in.uv);
    let fullbright = textureSample(fullbright_texture, skin_sampler, in.uv).rgb;
    if (base.a < 0.5) {
        discard;
    }
    let len = length(in.normal);
    var diffuse = 0.0;
    if (len > 0.0) {
        diffuse = max(dot(in.normal / len, globals.light.xyz), 0.0);
    }
    let light = min(globals.light.w + globals.params.y * diffuse, 1.0);
    // Fullbright texels (the mask holds their colour, black elsewhere) ignore the light.
    return vec4<f32>(max(base.rgb * light, fullbright), 1.0);
}

@fragment
fn fs_wire(in: VsOut) -> @location(0) vec4<f32> {
    return globals.wire_color;
}
