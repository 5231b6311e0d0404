//! The md5camera path: a perspective camera on a node animated by translation and rotation.
//!
//! Doom 3 looks along the camera's `+X` with `+Z` up; a glTF camera looks along its `-Z` with
//! `+Y` up. The node's rotation is the key's rotation (in Y-up) followed by [`LOOK`], which
//! takes the glTF camera's axes to Doom 3's. Key `k` is at `k / fps` seconds; at a cut `c`
//! the camera holds key `c - 1` until just before `c / fps`, then jumps (no interpolation
//! across a cut).

use std::f32::consts::FRAC_1_SQRT_2;

use gltf_json as json;
use json::camera::{Perspective, Type};
use json::scene::UnitQuaternion;
use json::validation::Checked::Valid;

use super::animation::{Channels, Track};
use super::{invalid, strictly_increasing, Builder};
use crate::error::Result;
use crate::math::det;
use crate::math::Quat;
use crate::model::quat_to_y_up;
use crate::model::{to_y_up, CameraKey};

/// `-90°` about `+Y` (in Y-up space): turns the glTF camera's view axis `-Z` to `+X` (Doom 3's
/// view axis after [`to_y_up`]) and keeps `+Y` (Doom 3's `+Z`, up).
const LOOK: Quat = Quat::new(0.0, -FRAC_1_SQRT_2, 0.0, FRAC_1_SQRT_2);

/// Width over height of the screen the horizontal field of view is meant for: Doom 3's
/// 640x480.
const ASPECT: f32 = 4.0 / 3.0;

/// Near clipping distance: Doom 3's `r_znear` default, in model units.
const ZNEAR: f32 = 3.0;

/// Frames per second assumed when a path's rate is not a positive number (Doom 3's default).
const CAMERA_FPS: f32 = 24.0;

/// A key's node translation and rotation in Y-up.
fn node_transform(key: &CameraKey) -> ([f32; 3], [f32; 4]) {
    let q = Quat::from_array(quat_to_y_up(
        Quat::from_array(key.rotation).normalize().to_array(),
    ));
    (to_y_up(key.position), (q * LOOK).normalize().to_array())
}

impl Builder<'_> {
    /// The camera and its node, placed at the first key.
    pub(super) fn camera(&mut self) -> Result<()> {
        let Some(path) = &self.model.camera else {
            return Ok(());
        };
        let Some(first) = path.keys.first() else {
            self.warnings
                .push("the camera path has no keys; left out".to_string());
            return Ok(());
        };
        for (k, key) in path.keys.iter().enumerate() {
            let values = key.position.iter().chain(&key.rotation);
            if !values.chain([&key.fov_degrees]).all(|v| v.is_finite()) {
                return Err(invalid(format!("camera key {k}: non-finite value")));
            }
        }
        let mut fov = first.fov_degrees;
        if !(fov > 0.0 && fov < 180.0) {
            self.warnings.push(format!(
                "camera: field of view {fov} degrees is out of range; 90 used"
            ));
            fov = 90.0;
        }
        let (lo, hi) = path.keys.iter().fold((f32::MAX, f32::MIN), |(lo, hi), k| {
            (lo.min(k.fov_degrees), hi.max(k.fov_degrees))
        });
        if hi - lo > 1e-4 {
            self.warnings.push(format!(
                "camera: the field of view changes ({lo} to {hi} degrees) but glTF cannot animate it without KHR_animation_pointer; the first key's {fov} degrees is kept"
            ));
        }
        let half = f64::from(fov).to_radians() / 2.0;
        let yfov = (2.0 * det::atan(det::tan(half) / f64::from(ASPECT))) as f32;
        let camera = self.root.push(json::Camera {
            name: Some("camera".to_string()),
            orthographic: None,
            perspective: Some(Perspective {
                aspect_ratio: Some(ASPECT),
                yfov,
                zfar: None,
                znear: ZNEAR,
                extensions: None,
                extras: Default::default(),
            }),
            type_: Valid(Type::Perspective),
            extensions: None,
            extras: Default::default(),
        });
        let (translation, rotation) = node_transform(first);
        let node = self.root.push(json::Node {
            camera: Some(camera),
            name: Some("camera".to_string()),
            translation: Some(translation),
            rotation: Some(UnitQuaternion(rotation)),
            ..json::Node::default()
        });
        self.camera_node = Some(node);
        self.roots.push(node);
        Ok(())
    }

    /// The animation `camera` of a path with two keys or more.
    pub(super) fn camera_animation(&mut self) -> Result<()> {
        let (Some(path), Some(node)) = (&self.model.camera, self.camera_node) else {
            return Ok(());
        };
        let n = path.keys.len();
        if n < 2 {
            return Ok(());
        }
        let fps = self.fps_or("camera", path.fps, CAMERA_FPS);
        let step = 1.0 / f64::from(fps);
        let mut keys: Vec<(f32, usize)> = Vec::with_capacity(n + path.cuts.len());
        for k in 0..n {
            let t = k as f64 * step;
            if k > 0 && path.cuts.contains(&(k as u32)) {
                keys.push(((t - step * 1e-3) as f32, k - 1));
            }
            keys.push((t as f32, k));
        }
        let bad: Vec<u32> = path
            .cuts
            .iter()
            .copied()
            .filter(|&c| c == 0 || c as usize >= n)
            .collect();
        if !bad.is_empty() {
            self.warnings.push(format!(
                "camera: cuts {bad:?} are outside frames 1..{n}; ignored"
            ));
        }
        let mut times: Vec<f32> = keys.iter().map(|k| k.0).collect();
        strictly_increasing(&mut times);
        let (translations, mut rotations): (Vec<[f32; 3]>, Vec<[f32; 4]>) = keys
            .iter()
            .map(|&(_, k)| node_transform(&path.keys[k]))
            .unzip();
        let input = self.times(&times);
        let mut out = Channels::default();
        let track = Track::new(input, node, &translations, &mut rotations, None);
        self.trs_channels(track, &mut out);
        let animation = out.animation("camera".to_string(), Default::default());
        self.root.push(animation);
        Ok(())
    }
}
