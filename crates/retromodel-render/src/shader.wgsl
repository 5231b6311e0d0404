// retromodel-render: one shader module for both animation paths.
//
// Keyframe path (vs_morph): pose A and pose B arrive as two vertex buffers (slices of one
// buffer holding every pose of the mesh), the vertex shader blends positions and normals by
// `globals.params.x`. Skeletal path (vs_skin): bind-pose vertices with up to four joint
// influences, skinned by the joint matrices of the current frame (an RGBA32F texture, four
// texels a joint: WebGL2 has no storage buffers). Meshes with a vertex of more than four
// influences use vs_skin_all, which loops over every influence of the vertex, read from an
// RG32UI texture by vertex index.
// Positions are in the model's Z-up space; `globals.model` is the Z-up -> Y-up rotation.

struct Globals {
    view_proj: mat4x4<f32>,
    model: mat4x4<f32>,
    // xyz: unit direction towards the light (world space), w: ambient term.
    light: vec4<f32>,
    // x: blend factor, y: diffuse strength, z: wireframe depth pull, w: unused.
    params: vec4<f32>,
    wire_color: vec4<f32>,
    // Chrome textures (Half-Life `STUDIO_NF_CHROME`): the camera's right and up directions
    // (world space), against which a normal gives the texture coordinates.
    chrome_right: vec4<f32>,
    chrome_up: vec4<f32>,
};

@group(0) @binding(0) var<uniform> globals: Globals;
@group(1) @binding(0) var skin_texture: texture_2d<f32>;
@group(1) @binding(1) var fullbright_texture: texture_2d<f32>;
@group(1) @binding(2) var skin_sampler: sampler;
// Joint j's matrix columns are texels 4j..4j+3 of the rows read left to right.
@group(2) @binding(0) var joints: texture_2d<f32>;
// vs_skin_all only: per vertex `(start, count)` at the vertex's index, then the
// `(joint, bitcast<u32>(weight))` pairs that the starts point at, in the same texture (rows
// read left to right).
@group(2) @binding(1) var influences: texture_2d<u32>;

fn joint_matrix(j: u32) -> mat4x4<f32> {
    let per_row = textureDimensions(joints).x / 4u;
    let x = i32((j % per_row) * 4u);
    let y = i32(j / per_row);
    return mat4x4<f32>(
        textureLoad(joints, vec2<i32>(x, y), 0),
        textureLoad(joints, vec2<i32>(x + 1, y), 0),
        textureLoad(joints, vec2<i32>(x + 2, y), 0),
        textureLoad(joints, vec2<i32>(x + 3, y), 0),
    );
}

fn influence(i: u32) -> vec2<u32> {
    let width = textureDimensions(influences).x;
    return textureLoad(influences, vec2<i32>(i32(i % width), i32(i / width)), 0).xy;
}

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

// The wireframe variants draw the same vertices pulled towards the camera by
// `globals.params.z` (a fraction of w), so that the lines win the depth test over the fill.
fn pull(v: VsOut) -> VsOut {
    var out = v;
    out.clip.z = out.clip.z - globals.params.z * out.clip.w;
    return out;
}

struct MorphIn {
    @location(0) uv: vec2<f32>,
    @location(1) pos_a: vec3<f32>,
    @location(2) nrm_a: vec3<f32>,
    @location(3) pos_b: vec3<f32>,
    @location(4) nrm_b: vec3<f32>,
};

fn morph(v: MorphIn) -> VsOut {
    let t = globals.params.x;
    return finish(mix(v.pos_a, v.pos_b, t), mix(v.nrm_a, v.nrm_b, t), v.uv);
}

@vertex
fn vs_morph(v: MorphIn) -> VsOut {
    return morph(v);
}

@vertex
fn vs_morph_wire(v: MorphIn) -> VsOut {
    return pull(morph(v));
}

struct SkinIn {
    @location(0) uv: vec2<f32>,
    @location(1) position: vec3<f32>,
    @location(2) normal: vec3<f32>,
    @location(5) joint: vec4<u32>,
    @location(6) weight: vec4<f32>,
};

// A skinned position and normal, summed over the vertex's influences.
struct Skinned {
    p: vec3<f32>,
    n: vec3<f32>,
};

// `s` plus one influence: joint `joint`'s matrix applied to the bind-pose position and
// normal, times the weight `w`.
fn add_influence(s: Skinned, joint: u32, w: f32, position: vec3<f32>, normal: vec3<f32>) -> Skinned {
    let m = joint_matrix(joint);
    return Skinned(s.p + w * (m * vec4<f32>(position, 1.0)).xyz, s.n + w * (m * vec4<f32>(normal, 0.0)).xyz);
}

fn skin(v: SkinIn) -> VsOut {
    var s = Skinned(vec3<f32>(0.0), vec3<f32>(0.0));
    for (var i = 0u; i < 4u; i = i + 1u) {
        let w = v.weight[i];
        if (w != 0.0) {
            s = add_influence(s, v.joint[i], w, v.position, v.normal);
        }
    }
    return finish(s.p, s.n, v.uv);
}

@vertex
fn vs_skin(v: SkinIn) -> VsOut {
    return skin(v);
}

@vertex
fn vs_skin_wire(v: SkinIn) -> VsOut {
    return pull(skin(v));
}

struct SkinAllIn {
    @builtin(vertex_index) vertex: u32,
    @location(0) uv: vec2<f32>,
    @location(1) position: vec3<f32>,
    @location(2) normal: vec3<f32>,
};

fn skin_all(v: SkinAllIn) -> VsOut {
    let range = influence(v.vertex);
    var s = Skinned(vec3<f32>(0.0), vec3<f32>(0.0));
    for (var i = 0u; i < range.y; i = i + 1u) {
        let e = influence(range.x + i);
        s = add_influence(s, e.x, bitcast<f32>(e.y), v.position, v.normal);
    }
    return finish(s.p, s.n, v.uv);
}

@vertex
fn vs_skin_all(v: SkinAllIn) -> VsOut {
    return skin_all(v);
}

@vertex
fn vs_skin_all_wire(v: SkinAllIn) -> VsOut {
    return pull(skin_all(v));
}

// The unit normal, or zero for a vertex without one.
fn unit(n: vec3<f32>) -> vec3<f32> {
    let len = length(n);
    return select(vec3<f32>(0.0), n / max(len, 1e-20), len > 0.0);
}

// The skin's colour `base` lit, with the fullbright texels' colour `fullbright` over it.
fn lit(base: vec4<f32>, fullbright: vec3<f32>, normal: vec3<f32>) -> vec4<f32> {
    let diffuse = max(dot(unit(normal), globals.light.xyz), 0.0);
    let light = min(globals.light.w + globals.params.y * diffuse, 1.0);
    // Fullbright texels (the mask holds their colour, black elsewhere) ignore the light.
    return vec4<f32>(max(base.rgb * light, fullbright), 1.0);
}

@fragment
fn fs_shaded(in: VsOut) -> @location(0) vec4<f32> {
    // Both samples first: texture sampling must stay in uniform control flow.
    let base = textureSample(skin_texture, skin_sampler, in.uv);
    let fullbright = textureSample(fullbright_texture, skin_sampler, in.uv).rgb;
    if (base.a < 0.5) {
        discard;
    }
    return lit(base, fullbright, in.normal);
}

// A chrome texture: sampled where the normal points on screen, as GoldSrc's renderer
// computes each vertex's chrome coordinates from the view's right and up vectors
// (`(n . right + 1) / 2`), so the picture follows the view, a fake reflection.
@fragment
fn fs_chrome(in: VsOut) -> @location(0) vec4<f32> {
    let n = unit(in.normal);
    let uv = vec2<f32>(
        dot(n, globals.chrome_right.xyz) + 1.0,
        1.0 - dot(n, globals.chrome_up.xyz),
    ) * 0.5;
    let base = textureSample(skin_texture, skin_sampler, uv);
    let fullbright = textureSample(fullbright_texture, skin_sampler, uv).rgb;
    if (base.a < 0.5) {
        discard;
    }
    return lit(base, fullbright, in.normal);
}

@fragment
fn fs_wire(in: VsOut) -> @location(0) vec4<f32> {
    return globals.wire_color;
}
